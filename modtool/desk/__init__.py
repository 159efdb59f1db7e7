"""``modtool serve``: a local web desk for one game folder or a folder of games.

The desk is one more user of ``modtool.api`` (like the command line): every
answer it shows is a ``View`` or ``Said`` the library returned, every write goes
through the library's calls (the commands' own checks, the one write guard, the
folder's lock per call), so it holds no rule of its own.

- ``server.py``: the HTTP server (the standard library's ``ThreadingHTTPServer``),
  its routes and its guards (loopback, Host header, CSRF token, paths).
- ``pages.py``: what each page shows, asked of the library, and the forms,
  made from the commands' declarations (``modtool.core.command.Param``).
- ``templates/`` (jinja2, HTML autoescape) and ``static/`` (one script, one
  style sheet): shipped in the package; the page fetches nothing else.
"""

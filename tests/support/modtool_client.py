"""A stand-in for the ``modtool`` program that runs each command inside the
test process (tests/support/inprocess.py), so a build script of dozens of
commands costs dozens of in-process calls, not dozens of Python start-ups.

Run as ``python -S -E modtool_client.py ARGS…`` with MODTOOL_SHIM naming the
server's socket; it prints what the command printed and exits with its code.
"""

import json
import os
import socket
import sys

s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(os.environ["MODTOOL_SHIM"])
s.sendall(json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd()}).encode("utf-8", "surrogateescape") + b"\n")
chunks = []
while True:
    b = s.recv(65536)
    if not b:
        break
    chunks.append(b)
reply = json.loads(b"".join(chunks).decode("utf-8"))
sys.stdout.write(reply["out"])
sys.stderr.write(reply["err"])
sys.stdout.flush()
sys.stderr.flush()
sys.exit(reply["code"])

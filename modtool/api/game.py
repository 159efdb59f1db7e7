"""The game folder as the front ends and any program use it: ``Game``
(ask, record), ``new_game``, ``open_game`` and the folder-level commands
(``check_folder``, ``upgrade_folder``, ``restore_folder``). Read
``modtool.api`` for what it promises."""


from __future__ import annotations

from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from modtool.base import i18n
from modtool.base.events import describe_ref
from modtool.core import recording
from modtool.core.announced import confirmed, record, with_corrections
from modtool.core.command import REQUIRED, Said
from modtool.core.gamefile import open_game as _open_game
from modtool.core.pack import post_floor_refused
from modtool.base.problems import Problem, UserError
from modtool.core.registry import all_packs, get_pack
from modtool.core.restoring import restore
from modtool.core.soundness import game_problems
from modtool.core.timespan import clock
from modtool.core.upgrade import upgrade
from modtool.core.view import Query, View
from modtool.ledger import EXCLUSIVE, session, SHARED


def _forcing(force: bool | None):
    """G-R2's ``--force`` for one call: True or False as given; None (the default)
    as the caller's own context says (``confirmed``), False outside any: the
    command line sets it once for the whole command (``modtool.cli.confirm``)."""
    return nullcontext() if force is None else confirmed(force)


@dataclass(frozen=True)
class Recorded:
    """What ``Game.record`` wrote: the ledger's events now, and notes for the director."""

    events: int
    notes: tuple[str, ...] = ()


class Game:
    """One game folder (its ``ledger.yaml``). Each call reads the ledger as it is
    then: a change made meanwhile by a command or an editor is seen."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        with i18n.speaking(i18n.language()):  # opening speaks the game's language: not past this call
            self.id = self._open().game.id  # refuses a folder without a readable ledger
        self.language = get_pack(self.id).language

    def __repr__(self) -> str:
        return f"Game({str(self.path)!r}, id={self.id!r})"

    def _open(self):
        return _open_game(self.path)

    @contextmanager
    def _speaking(self):
        """Inside: words in the game's language; a UserError leaving it has its
        problems bound to that language, shown in it wherever the caller shows them."""
        with i18n.speaking(self.language):
            try:
                yield
            except UserError as exc:
                exc.problems = [p.in_language(self.language) for p in exc.problems]
                raise

    def _pack(self):
        return get_pack(self.id)

    def _sound(self):
        """The game opened, refused (UserError) while its events are misshapen."""
        gd = self._open()
        if gd.problems:
            raise UserError(gd.problems)
        return gd

    # --- queries --------------------------------------------------------------
    def tally(self, day: int | None = None, *, at: str | None = None, floor: int | None = None,
              close: str | None = None, upto_post: int | None = None, **options) -> View:
        """A day's votes (default: the current day) as at a time (``at``, the
        game's zone, "2026-11-04 18:00"), a floor or post (``floor``, included),
        or the whole day; ``close`` for a day the ledger has no close for.
        ``options``: any a game's pack reads beyond these (``Query.options``)."""
        floor = upto_post if floor is None else floor  # the CLI spells it --upto-post too
        with self._speaking():
            gd = self._sound()
            return self._pack().tally_view(self.path, gd, Query(day, floor, at, close, options))

    def post(self, kind: str, fmt: str = "bbcode", *, day: int | None = None, close: str | None = None,
             floor: int | None = None, upto_post: int | None = None, **options) -> View:
        """An announcement post of ``kind`` (``modtool announce``'s kinds) in ``fmt``
        ("bbcode" or "md"), rendered and written nowhere; ``options``: the post's
        own (``night``, ``seat``, ``character``, ``card``, ``title`` …); ``close`` as in ``tally``;
        ``floor`` (or ``upto_post``): as at that post, for a game whose posts are cut so
        (mafia), refused for another, as ``announce --upto-post`` is."""
        floor = upto_post if floor is None else floor
        with self._speaking():
            gd = self._sound()
            if floor is not None and not self._pack().announce_upto:
                raise post_floor_refused(self.id)
            return self._pack().post_view(self.path, gd, kind, fmt, Query(day, floor, None, close, options))

    def view(self, name: str, *, day: int | None = None, **options) -> View:
        """One of the game's own queries, by the name its pack gives it (``views()``:
        M42's ``cards``, ``schedule``, ``flags``), the same answer its command prints."""
        with self._speaking():
            gd = self._sound()
            found = self._pack().views().get(name)
            if found is None:
                able = [p.id for p in all_packs().values() if name in p.views()]
                raise UserError(Problem(name, "这个命令目前只支持 {games}，这局是 {game}", games=i18n.Listing(able) or i18n.Message("（没有游戏）"), game=self.id))
            return found(self.path, Query(day=day, options=options))

    def status(self) -> View:
        """The game as it stands: phase, who is in and out, pending actions, deadlines,
        and what the forum must correct (G-R2, ``announced_changed``), as ``modtool status`` says it."""
        with self._speaking():
            gd = self._sound()
            return with_corrections(self._pack().status_view(self.path, gd), gd)

    def corrected(self, *, shown_as: str | None = None) -> Said:
        """``modtool corrected``: the forum now reads the replay's results (G-R2)."""
        with self._speaking(), session(EXCLUSIVE):
            return recording.corrected(self.path, shown_as=shown_as)

    def chart(self, day: int | None = None, *, floor: int | None = None, at: str | None = None,
              close: str | None = None):
        """A day's votes as a picture's model (``modtool.core.chart.model.VoteChart``),
        from the same replay as ``tally``; ``modtool.core.chart.draw`` draws it."""
        with self._speaking():
            gd = self._sound()
            return self._pack().chart(self.path, gd, day=day, floor=floor, at=at, close=close)

    def draw_chart(self, out: str | Path, *, day: int | None = None, floor: int | None = None,
                   at: str | None = None, close: str | None = None, font: str | Path | None = None) -> str:
        """``modtool chart``: the day's votes drawn (``chart``'s model) to ``out``
        (.png or .svg) with a font that has every character drawn (``font``, else one
        found on this machine); the font's path. Without the ``chart`` extra, or with
        no such font: ``UserError``, and no picture is left behind."""
        from modtool.core.chart import draw, fonts, require  # lazy: the chart extra (matplotlib), this call alone

        out = Path(out)
        if draw.FORMATS.get(out.suffix.lower()) is None:
            raise UserError(Problem(i18n.Message("命令行 -o"), "图片文件应以 .png 或 .svg 结尾（现在是「{name}」）", name=out.name))
        with self._speaking():
            require()  # the chart extra: without it, one line saying how to install it
            data = self.chart(day, floor=floor, at=at, close=close)
            face = fonts.choose([*data.texts(), "0123456789-:. "], named=str(font) if font else None)
            drawn = draw.save(data, out, face)
            lacking = fonts.missing(str(face), fonts.needed(drawn))
            if lacking:  # a tick label with a character the texts did not foresee: never a box in the picture
                out.unlink(missing_ok=True)
                raise UserError(Problem("--font", "字体「{path}」缺少这些字：{chars}", path=face, chars="".join(lacking)))
            return str(face)

    def characters(self) -> tuple[str, ...]:
        """The roster's names, in its order."""
        with self._speaking():
            return tuple(c.name for c in self._open().roster.characters)

    def problems(self) -> tuple[Problem, ...]:
        """Everything ``modtool check`` finds: ledger damage and refused submissions
        (``Problem.refused``), each with its place, shown in the game's language
        (``msgid`` and ``args`` for another)."""

        with self._speaking():
            return tuple(p.in_language(self.language) for p in game_problems(self._open()))

    def events(self) -> tuple[dict, ...]:
        """The ledger's facts in order, undone ones left out: ``{"type", "line", **fields}``."""
        with self._speaking():
            return tuple({"type": e.type, "line": e.line, **e.data} for e in self._open().events)

    # --- facts ----------------------------------------------------------------
    def record(self, events: list[dict], *, force: bool | None = None) -> Recorded:
        """Append ``events`` (each a dict with its ``type`` and fields, as the
        ledger holds them) through the commands' write guard. Refused:
        ``UserError``, nothing written. Written: how many events the ledger
        holds now, and what the director must hear (announced results the
        change altered, with ``force``: to correct on the forum)."""
        notes: list[str] = []
        with self._speaking(), _forcing(force):
            data = record(self._open(), [dict(e) for e in events], tell=notes.append)
            return Recorded(len(data.events), tuple(notes))

    def import_posts(self, files: str | Path | list[str | Path], *, thread: str, day: int,
                     dry_run: bool = False, progress=None) -> Said:
        """``modtool import``: the posts of forum dumps ``files`` as day ``day``'s
        ``thread`` (vote, discussion, process), each post once; ``dry_run``: told,
        not written. Returns what the command prints (added, skipped, notices)
        and, as ``data``, the same as values: the new posts, the edited ones
        (G-R3), those outside the day, the accounts not in the roster, the batch."""
        with self._speaking(), session(EXCLUSIVE):
            files = [files] if isinstance(files, (str, Path)) else files  # one dump, or several
            return recording.import_posts(self.path, [Path(f) for f in files], thread, day, dry_run=dry_run,
                                          progress=progress)

    def undo(self, batch: str | int | None = None, *, force: bool | None = None) -> Said:
        """``modtool undo``: take back the last fact in force, or (``batch``: its
        number or "last") a whole import; history is kept (a ``revert``)."""
        with self._speaking(), session(EXCLUSIVE), _forcing(force):
            return recording.undo(self.path, None if batch is None else str(batch))

    def act(self, actor: str, ability: str, targets: list[str] | tuple[str, ...] = (), *,
            at: str | None = None, night: int | None = None, text: str | None = None,
            force: bool | None = None) -> Said:
        """``modtool act``: a night submission or a director's decision, with the
        command's own checks (its time: ``at`` as written, else the wall clock only
        inside the current phase); a player's submission the rules refuse is
        recorded all the same and raised as ``RecordedRefusal`` (G-R1)."""
        with self._speaking(), session(EXCLUSIVE), _forcing(force):
            gd = self._open()
            return self._pack().act(self.path, gd, actor, ability, list(targets), at=at, night=night, text=text,
                                    now=clock(gd))

    def announce(self, kind: str, fmt: str = "bbcode", *, told_at: str | None = None, force: bool | None = None,
                 **options) -> Said:
        """``modtool announce``: the post of ``kind``, as ``post`` gives it, except
        that sending one may itself be a fact, recorded here as the command records
        it (M42's witch and hunter notices: when they went out, ``told_at`` or now,
        M42-R15). ``options`` as ``post``'s (``day``, ``night``, ``character`` …)."""
        given = {**options, "told_at": told_at}  # a pack reads the options it takes (.get), as from the command line
        with self._speaking(), session(EXCLUSIVE), _forcing(force):
            gd = self._open()
            if given.get("floor") is not None and not self._pack().announce_upto:
                raise post_floor_refused(self.id)
            return self._pack().announce(self.path, gd, kind, fmt, options=given,
                                         now=clock(gd))

    def advance(self, *, at: str | None = None, force: bool | None = None) -> Said:
        """``modtool advance``: end the current phase (at ``at``, else now, inside
        the phase) and record what follows; returns what the command prints."""
        with self._speaking(), session(EXCLUSIVE), _forcing(force):
            gd = self._open()
            return self._pack().advance(self.path, gd, at=at,
                                        now=clock(gd))

    def commands(self) -> tuple[str, ...]:
        """The names of this game's own commands (``command`` runs them)."""
        return tuple(c.name for c in self._pack().commands())

    def command(self, name: str, *, force: bool = False, **params):
        """Run one of the game's own commands (``commands()``: M42's ``card``,
        mafia's ``deadline`` …) with its parameters by name, as the command line
        does: the same argument checks ("did you mean", a typed time's span), the
        same write guard (``force``: G-R2), the folder's lock held for it. Returns
        its answer, a ``View`` or ``modtool.core.command.Said`` (what the command
        line prints); refused: ``UserError``, nothing written."""
        found = next((c for c in self._pack().commands() if c.name == name), None)
        if found is None:
            raise UserError(Problem(name, "这一局没有这个命令；它有：{commands}", language=self.language,
                                    commands=", ".join(self.commands())))
        if any(p.name == "force" for p in found.params):  # the command's own --force (close, open) means both
            params["force"] = force
        for p in found.params:  # an option left out takes its default, as on the command line
            if p.name not in params and p.name != "game_dir" and p.default is not REQUIRED:
                params[p.name] = p.default
        with self._speaking(), session(EXCLUSIVE if found.writes else SHARED), confirmed(force):
            return found.function()(game_dir=self.path, **params)


def start_game(path: str | Path, game: str, *, roster: str | Path | None = None, **options) -> Said:
    """``modtool new``: a new ledger for ``game`` in folder ``path`` (``roster``: the
    roster file; ``options``: the ones the game's ``new`` takes, e.g. ``seed``; one
    it does not take is refused, naming those it does); what the command prints."""
    return recording.new_game(Path(path), game, roster=Path(roster) if roster is not None else None, **options)


def new_game(path: str | Path, game: str, *, roster: str | Path | None = None, **options) -> Game:
    """``start_game``, in the game's language, and the new game opened."""
    with i18n.speaking(get_pack(game).language):
        start_game(path, game, roster=roster, **options)
    return Game(path)


def check_folder(path: str | Path) -> tuple[View, list[Problem]]:
    """``modtool check``: the answer (the header's reminders, the refused
    submissions, or that nothing is wrong) and the damage found, which fails it.
    A folder whose ledger cannot be read at all: ``UserError``."""
    return recording.check_game(Path(path))


@dataclass(frozen=True)
class Upgraded:
    """One reference ``upgrade_folder`` rewrote: the revert's ledger ``line``, the
    line number it named (``was``) and the event id it names now (``now``)."""

    line: int
    was: object
    now: str


def upgrade_folder(path: str | Path) -> tuple[Upgraded, ...]:
    """``modtool upgrade``: each revert that names a line made to name its event's
    id, nothing else in the ledger touched; empty when there was none."""
    return tuple(Upgraded(ev.line, ev.data.get("line"), describe_ref(ref)) for ev, ref in upgrade(Path(path)))


def restore_folder(path: str | Path, forget: bool = False) -> tuple[str, ...]:
    """``modtool restore``: the events written and acknowledged that have gone from
    the ledger appended again (``forget``: recorded as meant instead); what it says."""
    return tuple(restore(Path(path), forget))


def open_game(path: str | Path) -> Game:
    """The game in folder ``path`` (``UserError`` if it holds no readable ledger)."""
    return Game(path)

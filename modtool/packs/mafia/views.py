"""What a day's tally shows: the ``--json`` form, the text report, the vote count post's context."""

from __future__ import annotations

from modtool.packs.mafia.day import NO_LYNCH, DayTally, facts
from modtool.packs.mafia.messages import _, ngettext


def tally_json(gd, t: DayTally) -> dict:
    slots = facts(gd).slots
    at = t.last_post if t.last_post is not None else t.start

    def name(key: str) -> str:
        return slots.name(key, at)

    return {
        "day": t.day,
        "living": len(t.living),
        "majority": t.majority,
        "votes": [{"target": name(k), "voters": [name(v) for v in t.voters_of(k)]} for k in t.targets() if k != NO_LYNCH],
        "not_voting": [name(k) for k in t.not_voting()],
        "no_lynch": [name(v) for v in t.voters_of(NO_LYNCH)],
        "lynched": (None if t.lynched in (None, NO_LYNCH) else name(t.lynched)),
        "no_lynch_reached": t.lynched == NO_LYNCH,
        "hammer_post": t.hammer_post,
        "deadline": t.deadline.strftime("%Y-%m-%d %H:%M") if t.deadline else None,
        "deadline_passed": t.deadline_passed,
        "upto_post": t.last_post,
        "unresolved": [{"post": u.post, "voter": name(u.voter), "text": u.text, "reason": u.reason,
                        "did_you_mean": u.hint} for u in t.unresolved],
        "flags": [{"post": g.post, "voter": name(g.voter), "word": g.kind, "text": g.text, "names": name(g.names)}
                  for g in t.flags],
        "takeover": _takeover(t),
        "lynch_recorded": t.lynch_recorded,
        "edited": [{"post": e.post, "voter": name(e.voter), "edited": e.edited, "now": _said(e.now),
                    "before": [_said(v) for v in e.before]} for e in t.edited],
    }


def _takeover(t: DayTally) -> dict | None:
    """MS-R6: where the day's saved posts start after it opened, and whether the votes standing
    there are recorded (None for a day saved from its opening)."""
    if t.standing is not None:
        return {"day_opened": t.start, "first_saved_post": t.standing["post"], "standing_recorded": True,
                "standing_post": t.standing["post"], "from_post": t.standing.get("from_post")}
    if t.gap is not None:
        return {"day_opened": t.gap[0], "first_saved_post": t.gap[1], "standing_recorded": False,
                "standing_post": None, "from_post": None}
    return None


def takeover_line(data: dict) -> str | None:
    """MS-R6, in every count: the day's saved posts start after its opening, and where the standing votes came from."""
    took = data.get("takeover")
    if not took:
        return None
    if not took["standing_recorded"]:
        return _("The saved posts start at #{first}, after the day opened at #{opened}: the votes standing before "
                 "them are not recorded, so this count shows only the votes cast since and no deadline result "
                 "(record them with modtool standing, MS-R6).").format(first=took["first_saved_post"], opened=took["day_opened"])
    if took["from_post"] is not None:
        return _("Votes standing at post #{post} as read from the host's count in post #{source} (MS-R6).").format(
            post=took["standing_post"], source=took["from_post"])
    return _("Votes standing at post #{post} as the host typed them in (MS-R6).").format(post=took["standing_post"])


def _said(acts) -> str:
    """A post's actions in words, as written: "unvote; vote Dave", or "no vote action"."""
    words = {"vote": "vote {target}", "unvote": "unvote {target}", "no_lynch": "vote no lynch"}
    return "; ".join(words[a.kind].format(target=a.target).strip() for a in acts) or _("no vote action")


def tally_text(data: dict, deadline: str | None, game: str = "GAME_DIR") -> str:
    lines = [_("Day {day}: {living} alive, {majority} to lynch").format(**data)
             + (_(" (up to post #{n})").format(n=data["upto_post"]) if data["upto_post"] is not None else "")]
    for row in data["votes"]:
        lines.append(f"  {row['target']} ({len(row['voters'])}): {', '.join(row['voters'])}")
    if data["no_lynch"]:
        lines.append(f"  {_('No lynch')} ({len(data['no_lynch'])}): {', '.join(data['no_lynch'])}")
    lines.append(_("Not voting ({n}): {names}").format(n=len(data["not_voting"]), names=", ".join(data["not_voting"]) or "-"))
    took = takeover_line(data)
    if took:
        lines.append(took)
    if data["lynched"] and data.get("lynch_recorded"):
        lines.append(_("{name} was lynched, as the host announced at post #{post} (a lynch fact, MS-R6): the day has "
                       "no posts saved, none were replayed.")
                     .format(name=data["lynched"], post=data["hammer_post"]))
    elif data["lynched"] and data["hammer_post"] is None:
        lines.append(_("{name} is lynched at the deadline with the most votes (deadline_rule: plurality, MS-R3).")
                     .format(name=data["lynched"]))
    elif data["lynched"]:
        lines.append(_("{name} is lynched (majority reached at post #{post}).").format(name=data["lynched"], post=data["hammer_post"]))
    elif data["deadline_passed"]:
        lines.append(_("The deadline passed without a majority: nobody is lynched (MS-R3)."))
    elif data["no_lynch_reached"]:
        lines.append(_("No lynch (majority reached at post #{post}).").format(post=data["hammer_post"]))
    if deadline:
        lines.append(_("Deadline: {deadline}").format(deadline=deadline))
    for u in data["unresolved"]:
        hint = _(" (did you mean {name}?)").format(name=u["did_you_mean"]) if u["did_you_mean"] else ""
        why = {"dead": _("is not alive"), "unreadable": _("could not be read (check the post by hand)")}.get(
            u["reason"], _("names no one in the game"))
        lines.append(_("Unresolved: post #{post}, {voter}: \"{text}\" {why}{hint}; not counted")
                     .format(post=u["post"], voter=u["voter"], text=u["text"], why=why, hint=hint))
    for g in data["flags"]:
        lines.append(_("Flag: post #{post}, {voter}: bold \"{word} {text}\" names {name} but is not a vote; "
                       "not counted (MS-R1)").format(post=g["post"], voter=g["voter"], word=g["word"], text=g["text"],
                                                     name=g["names"]))
    for e in data.get("edited", ()):
        before = "".join(_("; before: {said}").format(said=v) for v in e["before"]) or _("; the version before was not saved")
        lines.append(_("Edited: post #{post}, {voter} ({edited}): counted as it reads now: {now}{before} (G-R3)")
                     .format(post=e["post"], voter=e["voter"], edited=e["edited"], now=e["now"], before=before))
    # MS-R2: an alias is offered only for a text that names no one (a name of a dead player,
    # or an alias the host has, needs none), and it is the text typed, never one that exists.
    unknown = [u for u in data["unresolved"] if u["reason"] == "unknown" and u["text"]]
    if unknown:
        lines.append(ngettext("{n} vote was not counted: declare an alias with modtool alias if a name was meant.",
                              "{n} votes were not counted: declare an alias with modtool alias if a name was meant.",
                              len(unknown)).format(n=len(unknown)))
        for u in unknown:
            if u["did_you_mean"]:
                lines.append("  " + _("modtool alias {game} \"{text}\" {name}").format(game=game, text=u["text"], name=u["did_you_mean"]))
    return "\n".join(lines) + "\n"


def vote_post_context(data: dict, count_label: str, deadline: str | None) -> dict:
    return {"label": count_label, "deadline": deadline, **data, "takeover_note": takeover_line(data),
            "rows": [{"target": r["target"], "count": len(r["voters"]), "voters": r["voters"]} for r in data["votes"]]
            + ([{"target": _("No lynch"), "count": len(data["no_lynch"]), "voters": data["no_lynch"]}]
               if data["no_lynch"] else [])}

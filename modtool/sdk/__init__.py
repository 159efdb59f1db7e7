"""modtool.sdk: the one import of a game pack's author.

    from modtool.sdk import GamePack, Command, Param, Problem, UserError, View

A pack (modtool's own ``m42``, ``zhenhuan``, ``mafia``, or another
distribution's, registered under the ``modtool.games`` entry-point group)
imports nothing of modtool but this module; its tests import
``modtool.sdk.testing`` (an in-process runner and the example games).

- The pack: ``GamePack``, ``rules_loader``, ``Game``, ``load_game``, ``data_dir``, ``Schema``, ``DumpFormat``.
- Commands and answers: ``Command``, ``Param``, ``Said``, ``recorded_refusal``, ``Query``, ``View``, ``character_arg``, ``choice_arg``, ``hint``, ``number_of``, ``refuse``, ``time_arg``.
- Problems and words: ``Problem``, ``UserError``, ``damage``, ``refusals``, ``Listing``, ``Message``, ``t``, ``closest``, ``fold``, ``fold_name``.
- Times: ``Window``, ``fmt``, ``parse_clock``, ``parse_formatted``, ``parse_time``, ``parse_times``, ``zone``, ``check_time``, ``command_time``, ``recorded_times``.
- The ledger and its events: ``Event``, ``ref_of``, ``GameDir``, ``open_game``, ``effective_events``, ``ledger_path``, ``read_roster``, ``Roster``, ``record``, ``event_time``, ``post_of``, ``simulated``, ``require_sound``, ``refusals_text``, ``create_game``, ``header_text``, ``read_roster_file``, ``write_new``, ``write_file``, ``code_fingerprint``, ``read_record``, ``write_record``.
- Posts and their markup: ``Post``, ``ReplyRef``, ``OutsideDay``, ``time_stamp``, ``Body``, ``MarkupError``, ``own_text``, ``split_body``, ``PARAM_TAGS``, ``SIMPLE_TAGS``, ``SIMPLE_PARAM_FORMS``, ``HTMLScanner``, ``replace_surrogates``, ``MAX_FLOOR``, ``bounded_floor``, ``short_number``, ``shown_text``.
- Vote forms: ``VoteForm``, ``Kind``, ``VoteWords``, ``InlineForm``, ``inline_actions``, ``inline_mentions``, ``parse_vote``, ``FormatError``.
- Posts rendered: ``render``, ``render_each``, ``render_page``, ``Safe``, ``capped``, ``list_limit``, ``more_text``, ``screenshot``.
- Vote charts: ``PICTURES``, ``require_chart``, ``VoteChart``, ``Bar``, ``Segment``, ``Step``, ``ChartWords``.

Every name is loaded on first use (PEP 562's module ``__getattr__``): the
registry imports each pack's ``pack.py`` on every run, ``--help`` too, so a
pack importing the names it needs from here pays only for those, at the moment
it uses them. ``NAMES`` maps each public name to where it lives; the names are
the sdk's promise, the homes may move.
"""

from __future__ import annotations

from importlib import import_module

NAMES: dict[str, tuple[str, str]] = {
    # The pack
    'GamePack': ('modtool.core.pack', 'GamePack'),
    'rules_loader': ('modtool.core.pack', 'rules_loader'),
    'Game': ('modtool.core.games', 'Game'),
    'load_game': ('modtool.core.games', 'load_game'),
    'data_dir': ('modtool.core.games', 'data_dir'),
    'Schema': ('modtool.core.schema', 'Schema'),
    'DumpFormat': ('modtool.forum.formats', 'DumpFormat'),
    # Commands and answers
    'Command': ('modtool.core.command', 'Command'),
    'Param': ('modtool.core.command', 'Param'),
    'Said': ('modtool.core.command', 'Said'),
    'recorded_refusal': ('modtool.core.command', 'recorded_refusal'),
    'Query': ('modtool.core.view', 'Query'),
    'View': ('modtool.core.view', 'View'),
    'character_arg': ('modtool.core.arguments', 'character_arg'),
    'choice_arg': ('modtool.core.arguments', 'choice_arg'),
    'hint': ('modtool.core.arguments', 'hint'),
    'number_of': ('modtool.core.arguments', 'number_of'),
    'refuse': ('modtool.core.arguments', 'refuse'),
    'time_arg': ('modtool.core.arguments', 'time_arg'),
    # Problems and words
    'Problem': ('modtool.base.problems', 'Problem'),
    'UserError': ('modtool.base.problems', 'UserError'),
    'damage': ('modtool.base.problems', 'damage'),
    'refusals': ('modtool.base.problems', 'refusals'),
    'Listing': ('modtool.base.i18n', 'Listing'),
    'Message': ('modtool.base.i18n', 'Message'),
    't': ('modtool.base.i18n', 't'),
    'closest': ('modtool.base.text', 'closest'),
    'fold': ('modtool.base.text', 'fold'),
    'fold_name': ('modtool.base.text', 'fold_name'),
    # Times
    'Window': ('modtool.base.times', 'Window'),
    'fmt': ('modtool.base.times', 'fmt'),
    'parse_clock': ('modtool.base.times', 'parse_clock'),
    'parse_formatted': ('modtool.base.times', 'parse_formatted'),
    'parse_time': ('modtool.base.times', 'parse_time'),
    'parse_times': ('modtool.base.times', 'parse_times'),
    'zone': ('modtool.base.times', 'zone'),
    'check_time': ('modtool.core.timespan', 'check'),
    'command_time': ('modtool.core.timespan', 'command_time'),
    'recorded_times': ('modtool.core.timespan', 'recorded_times'),
    # The ledger and its events
    'Event': ('modtool.base.events', 'Event'),
    'ref_of': ('modtool.base.events', 'ref_of'),
    'GameDir': ('modtool.core.gamefile', 'GameDir'),
    'open_game': ('modtool.core.gamefile', 'open_game'),
    'effective_events': ('modtool.core.gamefile', 'effective_events'),
    'ledger_path': ('modtool.core.gamefile', 'ledger_path'),
    'read_roster': ('modtool.core.gamefile', 'read_roster'),
    'Roster': ('modtool.core.roster', 'Roster'),
    'record': ('modtool.core.announced', 'record'),
    'event_time': ('modtool.core.eventfacts', 'event_time'),
    'post_of': ('modtool.core.eventfacts', 'post_of'),
    'simulated': ('modtool.core.simulation', 'simulated'),
    'require_sound': ('modtool.core.soundness', 'require_sound'),
    'refusals_text': ('modtool.core.soundness', 'refusals_text'),
    'create_game': ('modtool.core.newgame', 'create_game'),
    'header_text': ('modtool.core.newgame', 'header_text'),
    'read_roster_file': ('modtool.core.newgame', 'read_roster_file'),
    'write_new': ('modtool.ledger', 'write_new'),
    'write_file': ('modtool.core.outfile', 'write_file'),
    'code_fingerprint': ('modtool.ledger._cache', 'code_fingerprint'),
    'read_record': ('modtool.ledger._cache', 'read_record'),
    'write_record': ('modtool.ledger._cache', 'write_record'),
    # Posts and their markup
    'Post': ('modtool.forum.posts', 'Post'),
    'ReplyRef': ('modtool.forum.posts', 'ReplyRef'),
    'OutsideDay': ('modtool.core.importer', 'OutsideDay'),
    'time_stamp': ('modtool.forum', 'time_stamp'),
    'Body': ('modtool.forum.markup', 'Body'),
    'MarkupError': ('modtool.forum.markup', 'MarkupError'),
    'own_text': ('modtool.forum.markup', 'own_text'),
    'split_body': ('modtool.forum.markup', 'split_body'),
    'PARAM_TAGS': ('modtool.forum.markup', '_PARAM'),
    'SIMPLE_TAGS': ('modtool.forum.markup', '_SIMPLE'),
    'SIMPLE_PARAM_FORMS': ('modtool.forum.markup', '_SIMPLE_PARAM_FORMS'),
    'HTMLScanner': ('modtool.forum.htmlscan', 'HTMLScanner'),
    'replace_surrogates': ('modtool.forum.common', 'replace_surrogates'),
    'MAX_FLOOR': ('modtool.forum.bounds', 'MAX_FLOOR'),
    'bounded_floor': ('modtool.forum.bounds', 'bounded_floor'),
    'short_number': ('modtool.forum.bounds', 'short_number'),
    'shown_text': ('modtool.forum.bounds', 'shown'),
    # Vote forms
    'VoteForm': ('modtool.core.voteform', 'VoteForm'),
    'Kind': ('modtool.core.voteform', 'Kind'),
    'VoteWords': ('modtool.core.voteform', 'Words'),
    'InlineForm': ('modtool.core.voteform', 'InlineForm'),
    'inline_actions': ('modtool.core.voteform', 'inline_actions'),
    'inline_mentions': ('modtool.core.voteform', 'inline_mentions'),
    'parse_vote': ('modtool.core.voteform', 'parse'),
    'FormatError': ('modtool.core.postform', 'FormatError'),
    # Posts rendered
    'render': ('modtool.core.render', 'render'),
    'render_each': ('modtool.core.render', 'render_each'),
    'render_page': ('modtool.core.render', 'render_page'),
    'Safe': ('modtool.core.render', 'Safe'),
    'capped': ('modtool.core.render', 'capped'),
    'list_limit': ('modtool.core.render', 'list_limit'),
    'more_text': ('modtool.core.render', 'more_text'),
    'screenshot': ('modtool.core.browser', 'screenshot'),
    # Vote charts
    'PICTURES': ('modtool.core.chart', 'PICTURES'),
    'require_chart': ('modtool.core.chart', 'require'),
    'VoteChart': ('modtool.core.chart.model', 'VoteChart'),
    'Bar': ('modtool.core.chart.model', 'Bar'),
    'Segment': ('modtool.core.chart.model', 'Segment'),
    'Step': ('modtool.core.chart.model', 'Step'),
    'ChartWords': ('modtool.core.chart.model', 'Words'),
}

__all__ = sorted(NAMES)


def __getattr__(name: str):
    home = NAMES.get(name)
    if home is None:
        raise AttributeError(f"modtool.sdk has no {name!r}")
    value = getattr(import_module(home[0]), home[1])
    globals()[name] = value  # loaded once
    return value


def __dir__() -> list[str]:
    return __all__

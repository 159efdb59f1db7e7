"""The storyteller's own commands for the 甄嬛 script, as data
(``modtool.core.command``); ``modtool.packs.zhenhuan.answers`` runs them.
Light: modtool reads it to list the commands, running none."""

from __future__ import annotations

from pathlib import Path

from modtool.sdk import Command, Param

RUN = "modtool.packs.zhenhuan.answers:"

COMMANDS = (
    Command('night', """甄嬛：当前夜晚按行动顺序的步骤：唤醒谁、问什么、真实信息（醉/毒时标“可能给假信息”并给出建议的假信息）、待回答的问题。

        Examples:

        \b
          modtool night examples/zhenhuan
          modtool night examples/zhenhuan --json
        """,
            (Param('game_dir', '游戏文件夹', Path),),
            RUN + 'night', json=True),
    Command('grimoire', """甄嬛：魔典网页：座位按顺序围成一圈，每个座位的玩家、角色、阵营、存活/死亡、死者票、醉酒/中毒等提示标记、
        变化（宠妃、女皇），旁边是伪装身份和今夜的唤醒顺序（谁还没被唤醒）。--public 只画公开的信息，可以贴到帖子里。

        Examples:

        \b
          modtool grimoire examples/zhenhuan -o 魔典.html
          modtool grimoire examples/zhenhuan -o 座位图.html --public --png 座位图.png
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('out', '网页文件（.html），单个文件，不联网即可打开', Path, ('-o', '--output')),
             Param('public', '只画全镇都能看到的：名字、存活或死亡、死者票、今天的提名（可以贴出去）', bool, ('--public',), False),
             Param('png', '同时用无界面浏览器（Chromium）把网页截成这张 PNG 图', Path, ('--png',), None)),
            RUN + 'grimoire'),
    Command('info', """甄嬛：记录说书人在夜里实际给出的信息（醉/毒时可以是假的）。

        Examples:

        \b
          modtool info examples/zhenhuan 3 "是"
          modtool info examples/zhenhuan 6 "2号或8号是敬妃"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('seat', '座位号或玩家', names='character'),
             Param('given', '实际告诉这名玩家的信息')),
            RUN + 'info', writes=True),
    Command('answer', """甄嬛：回答规则留给说书人决定的问题（狂徒之死、太上皇的继任者、祺贵人的随机死亡、假信息……）。

        Examples:

        \b
          modtool answer examples/zhenhuan night2/kuangtu 否
          modtool answer examples/zhenhuan night1/yurao_bind 8号
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('key', '问题的编号（modtool status / night 列出）'),
             Param('value', '说书人的决定')),
            RUN + 'answer', writes=True),
    Command('nominate', """甄嬛：直接记录一次提名（也可以从投票帖导入「提名对象/提名理由」帖子）。

        Examples:

        \b
          modtool nominate examples/zhenhuan 3 7
          modtool nominate examples/zhenhuan 5 2 --at "2026-11-04 20:30"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('nominator', '提名者（座位号或玩家）', names='character'),
             Param('nominee', '被提名者', names='character'),
             Param('at', '时间', str, ('--at',), None)),
            RUN + 'nominate', writes=True),
    Command('vote', """甄嬛：直接记录一票（也可以从投票帖导入「投票对象」帖子）；死者的一票整局只能用一次。

        Examples:

        \b
          modtool vote examples/zhenhuan 5 7
          modtool vote examples/zhenhuan 8 7 --at "2026-11-04 21:10"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('voter', '投票者（座位号或玩家）', names='character'),
             Param('nominee', '投给的被提名者', names='character'),
             Param('at', '时间', str, ('--at',), None)),
            RUN + 'vote', writes=True),
)

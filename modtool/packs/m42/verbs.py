"""M42's own commands, as data (``modtool.core.command``): cards, substitutes,
the schedule, flags, and a discussion day's facts (open, close, 代投);
``modtool.packs.m42.answers`` runs them. Light: modtool reads it to list the
commands, running none."""

from __future__ import annotations

from pathlib import Path

from modtool.sdk import Command, Param

RUN = "modtool.packs.m42.answers:"

COMMANDS = (
    Command('card', """判罚一张牌，并列出合并与该角色现有的牌。3 蓝合 1 黄，3 黄合 1 红；红牌罚下出局（白天的在投票结算之后）。
        同一角色同一天同色同理由的牌要加 --again（多半是重复输入）。

        Examples:

        \b
          modtool card examples/m42 石宽 yellow --reason "情绪发言" --floor 35
          modtool card examples/m42 涂山雅雅 blue --reason "投票帖格式不对" --at "2026-11-05 20:10"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('character', '角色', names='character'),
             Param('color', '蓝、黄、红（也可写 蓝牌 或 blue、yellow、red，大小写不限）'),
             Param('reason', '判罚理由', str, ('--reason',)),
             Param('floor', '违规的楼层', int, ('--floor',), None),
             Param('at', '判罚时间（默认现在）', str, ('--at',), None),
             Param('again', '同一天再判一张同色同理由的牌（否则视为重复判罚，拒绝）', bool, ('--again',), False)),
            RUN + 'card', writes=True),
    Command('withdraw', """撤销一张牌：记一条撤销事件，历史不删除。

        Examples:

        \b
          modtool withdraw examples/m42 3 --reason "误判，楼层看错"
          modtool withdraw examples/m42-full 1 --reason "玩家已私信说明"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('number', '牌的编号（modtool cards 列出）', int),
             Param('reason', '撤销理由', str, ('--reason',))),
            RUN + 'withdraw', writes=True),
    Command('cards', """每个角色的牌：编号、颜色、理由、楼层、撤销与合并。

        Examples:

        \b
          modtool cards examples/m42
          modtool cards examples/m42-discipline --json
        """,
            (Param('game_dir', '游戏文件夹', Path),),
            RUN + 'cards', json=True),
    Command('decide', """导演对规则留给导演的问题作出决定（红牌罚下时是否判负其阵营，M42-R13）。

        Examples:

        \b
          modtool decide examples/m42 石宽 --camp-stays
          modtool decide examples/m42 金人凤 --camp-loses --at "2026-11-06 09:00"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('character', '被红牌罚下的角色', names='character'),
             Param('camp_loses', '红牌是否判负其阵营', bool, ('--camp-loses/--camp-stays',)),
             Param('at', '决定的时间（默认现在）', str, ('--at',), None)),
            RUN + 'decide', writes=True),
    Command('substitute', """更换替补（每个角色限一次，账号不变）；找不到替补时用 --none 红牌罚下。

        Examples:

        \b
          modtool substitute examples/m42 石宽 --player 新来的小石
          modtool substitute examples/m42 东方秦兰 --none --at "2026-11-04 12:00"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('character', '角色', names='character'),
             Param('player', '替补玩家', str, ('--player',), None),
             Param('none_found', '无法继续且没有替补：红牌罚下（M42-R16）', bool, ('--none',), False),
             Param('at', '时间（默认现在）', str, ('--at',), None)),
            RUN + 'substitute', writes=True),
    Command('assistant', """登记场外助理；只有累计三场或以下的玩家可以申请（M42-R16）。

        Examples:

        \b
          modtool assistant examples/m42 白月初 --helper 老玩家阿白 --games 2
          modtool assistant examples/m42 涂山苏苏 --helper 红红的红 --games 0
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('character', '角色', names='character'),
             Param('helper', '场外助理', str, ('--helper',)),
             Param('games', '该玩家此前参加过的版杀场次', int, ('--games',))),
            RUN + 'assistant', writes=True),
    Command('schedule', """讨论日的时间表：开始、自然日（周末延长）、加速/延时申请与结果、改票截止、关门、各项行动时限。

        Examples:

        \b
          modtool schedule examples/m42 --day 2
          modtool schedule examples/m42-discipline --day 3 --json
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('day', '第几天（默认当前）', int, ('--day',), None, min=1)),
            RUN + 'schedule', json=True),
    Command('flags', """需要导演留意的帖子：红色或放大字体、诈尸、遗言含论坛代码、编辑过的投票帖（只提醒，不自动判罚）。

        Examples:

        \b
          modtool flags examples/m42 --day 2
          modtool flags examples/m42-discipline --json
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('day', '只看这一天', int, ('--day',), None, min=1)),
            RUN + 'flags', json=True),
    Command('lurking', """潜水观察：当天讨论日每个角色至今的讨论帖发帖数、是否已投票、此前连续不足 10 帖的天数，以及现在关门会判的潜水黄牌（M42-R14；只是预览，黄牌在关门时判）。

        Examples:

        \b
          modtool lurking examples/m42
          modtool lurking examples/m42-discipline --json
        """,
            (Param('game_dir', '游戏文件夹', Path),),
            RUN + 'lurking', json=True),
    Command('waive', """免除一张潜水黄牌（M42-R14），记下理由。

        Examples:

        \b
          modtool waive examples/m42 东方淮竹 --day 2 --rule b --reason "已私信请假"
          modtool waive examples/m42-discipline 涂山雅雅 --day 3 --rule a --reason "网络故障，导演认可"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('character', '角色', names='character'),
             Param('day', '第几天的潜水', int, ('--day',), min=1),
             Param('rule', 'a（不足五帖）、b（未投票）或 c（连续三天不足十帖）', str, ('--rule',), choices=('a', 'b', 'c')),
             Param('reason', '免除理由', str, ('--reason',))),
            RUN + 'waive', writes=True),
    Command('speedup', """导演宣布某个讨论日加速（人数较少时，M42-R15）：当天第一个自然日关门，不能改票，不判潜水。

        Examples:

        \b
          modtool speedup examples/m42-full --day 5
          modtool speedup examples/m42-discipline --day 4 --note "只剩五人，导演执行加速"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('day', '加速的讨论日', int, ('--day',), min=1),
             Param('note', '说明', str, ('--note',), '存活人数较少，导演执行加速')),
            RUN + 'speedup', writes=True),
    Command('close', """记下一个讨论日的关门时间（不记时按 M42-R15 计算）；改关门时间就再记一次，后记的取代先记的。

        已经结算的一天要加 --force 才改：重放会按新的关门时间重新计票，之后的夜晚和出局都可能改变。

        Examples:

        \b
          modtool close examples/m42 --day 2 --at "2026-11-05 21:00"
          modtool close examples/m42 --day 2 --at "2026-11-05 22:00" --note "论坛维护，延后一小时"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('day', '第几天', int, ('--day',), min=1),
             Param('at', '关门时间，例如 "2026-11-05 21:00"', str, ('--at',)),
             Param('note', '说明', str, ('--note',), None),
             Param('force', '这一天已经结算时仍然改（会重新计票，之后的结果都可能改变）', bool, ('--force',), False)),
            RUN + 'close', writes=True),
    Command('open', """记下第 1 天讨论日开始（发开始帖）的时间：关门时间、加速/延时和各项时限都从它算起（M42-R15）。

        不记时，第 1 天从账本开头的 opens 或第 1 天最早导入的帖子算起。

        Examples:

        \b
          modtool open examples/m42 --day 1 --at "2026-11-02 10:00"
          modtool open examples/m42 --at "2026-11-02 09:30"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('day', '第几天（只有第 1 天；之后的讨论日由黎明时的 advance 开始）', int, ('--day',), 1, min=1),
             Param('at', '开始帖发出的时间，例如 "2026-11-02 10:00"', str, ('--at',)),
             Param('force', '第 1 天已结算、或已导入更早的帖子时仍然改', bool, ('--force',), False)),
            RUN + 'open_', writes=True),
    Command('proxy', """记下一张代投（M42-R5）：谁投谁、从什么时候起；关门前一小时内的代投也记下，并说明不受理。

        Examples:

        \b
          modtool proxy examples/m42 东方秦兰 白月初 --day 2 --at "2026-11-05 15:00"
          modtool proxy examples/m42 涂山雅雅 石宽 --day 2 --kind change --at "2026-11-05 16:10" --note "私信改票"
        """,
            (Param('game_dir', '游戏文件夹', Path),
             Param('voter', '请导演代投的角色', names='character'),
             Param('target', '投票对象（角色名、别名或「弃权」）', names='character'),
             Param('day', '第几天（默认当前的讨论日）', int, ('--day',), None, min=1),
             Param('at', '玩家请求代投的时间（默认现在，须在当前阶段内）', str, ('--at',), None),
             Param('kind', 'vote（投票）或 change（改票）', str, ('--kind',), 'vote'),
             Param('note', '说明，例如玩家私信的内容', str, ('--note',), None)),
            RUN + 'proxy', writes=True),
)

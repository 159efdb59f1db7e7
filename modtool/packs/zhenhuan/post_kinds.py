"""The posts ``modtool announce`` renders for 血染甄嬛传: the one list of kinds.

``announce --help``, the views and README's table (checked by
tests/test_docs.py) all take the kinds from here; free of imports so the CLI
can build its help without loading the script.
"""

PUBLIC_KINDS = {
    "dawn": "天亮公告：昨夜的死亡（公开，--night）",
    "nominations": "当天的提名与票数（公开，--day）",
    "execution": "黄昏处决结果（公开，--day）",
    "end": "游戏结束：全部角色与时间线（公开）",
}

PRIVATE_KINDS = {
    "private": "夜里每个座位得到的信息（私信，--night；--seat 只出一个座位的）",
    "notes": "说书人笔记：当夜的全部行动、真实信息与实际给出的信息（只给说书人）",
}

KINDS = {**PUBLIC_KINDS, **PRIVATE_KINDS}

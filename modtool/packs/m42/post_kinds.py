"""The posts ``modtool announce`` renders for M42: the one list of kinds.

``announce --help``, the views and README's table (checked by
tests/test_docs.py) all take the kinds from here. Kept free of imports so
the CLI can build its help without loading the rules.
"""

PUBLIC_KINDS = {
    "vote": "投票结果（公开，--day）",
    "day-start": "讨论日开始帖：出局名单与遗言（公开，--day）",
    "succession": "警长继任（公开）",
    "end": "游戏结束：全部身份与时间线（公开）",
    "cards": "当天的判罚与潜水黄牌（公开，--day）",
    "speed": "加速/延时申请结果（公开，--day）",
    "schedule": "讨论日时间表（公开，--day）",
}

PRIVATE_KINDS = {
    "roles": "身份通知（私信，每人一张；狼人的写明狼队同伴；--character 只出一人的）",
    "witch": "女巫通灵（私信，--night）",
    "seer": "验人结果（私信，--night）",
    "wolves": "杀人结果（私信，--night）",
    "card-notice": "判罚通知（私信，--card 编号，默认最近一张）",
    "hunter": "猎人开枪提示（私信）",
    "sheriff": "警长殉职、指定继任提示（私信）",
}

KINDS = {**PUBLIC_KINDS, **PRIVATE_KINDS}

# Notices whose sending is a fact: the witch's and the hunter's half-hour runs from it (M42-R15).
SENT_KINDS = frozenset({"witch", "hunter"})

#!/usr/bin/env bash
# 重建 examples/m42-full 的账本：本例用到的全部 modtool 命令，按执行顺序，时间全部用 --at 给出。
# 用法（在仓库根目录）：bash examples/m42-full/build.sh /tmp/m42-full
# 目标文件夹里已有 ledger.yaml 时拒绝运行（不会覆盖 examples/m42-full 自己的账本）。
set -euo pipefail
G=${1:?用法：bash examples/m42-full/build.sh 目标文件夹}
G=$(realpath -m -- "$G")   # 相对路径按调用时的当前目录理解
cd "$(dirname "$0")/../.."
M=${MODTOOL:-.venv/bin/modtool}
E=examples/m42-full
if [ -e "$G/ledger.yaml" ]; then
  echo "$G/ledger.yaml 已存在，拒绝覆盖" >&2
  exit 1
fi

# 开局：按种子发身份
$M new "$G" --game m42 --roster $E/roster.yaml --seed 20261116

# 第一天（11-16 周一 10:00 — 11-17 周二 21:00）：警长竞选，纯文本存档
$M import "$G" $E/dumps/day1-vote.txt --thread vote --day 1
$M advance "$G" --at "2026-11-17 21:00"
# 第一夜：狼人刀翠玉鸣鸾，女巫救，预言家验杨一言
$M act "$G" 狼人 kill 翠玉鸣鸾 --at "2026-11-17 21:30"
$M act "$G" 傲来三少 save 翠玉鸣鸾 --at "2026-11-17 21:45"
$M act "$G" 翠玉鸣鸾 check 杨一言 --at "2026-11-17 21:50"
$M advance "$G" --at "2026-11-17 22:40"
$M advance "$G" --at "2026-11-18 10:00"

# 第二天（11-18 周三 — 11-19 周四 21:00）：放逐杨一言，手机版接口 JSON
$M import "$G" $E/dumps/day2-vote.json --thread vote --day 2
$M advance "$G" --at "2026-11-19 21:00"
$M act "$G" 杨一言 last_words --text "我是村民，鸣鸾验错了人。" --at "2026-11-19 21:20"
$M act "$G" 杨一言 last_words --text "盯紧欢都落兰，他两天都在跟风。" --at "2026-11-19 21:22"
# 第二夜：狼人刀翠玉鸣鸾（救药已用），预言家验沈星河，女巫毒梵云飞
$M act "$G" 狼人 kill 翠玉鸣鸾 --at "2026-11-19 21:25"
$M act "$G" 翠玉鸣鸾 check 沈星河 --at "2026-11-19 21:40"
$M act "$G" 傲来三少 poison 梵云飞 --at "2026-11-19 21:50"
$M advance "$G" --at "2026-11-19 22:40"
$M act "$G" 翠玉鸣鸾 successor 欢都落兰 --at "2026-11-19 23:00"
$M act "$G" 翠玉鸣鸾 last_words --text "我是预言家。第一夜验杨一言，非村民阵营；第二夜验沈星河，非村民阵营。" --at "2026-11-19 23:05"
$M act "$G" 翠玉鸣鸾 last_words --text "警徽交给欢都落兰，请他带队投沈星河。" --at "2026-11-19 23:08"
$M act "$G" 翠玉鸣鸾 last_words --text "投我的几个人里，欢都擎天最可疑。" --at "2026-11-19 23:12"
$M act "$G" 翠玉鸣鸾 last_words --text "大家加油，相信自己的判断。" --at "2026-11-19 23:15"
$M act "$G" 梵云飞 last_words --text "我只是个村民，夜里莫名其妙就没了。" --at "2026-11-20 08:40"
$M advance "$G" --at "2026-11-20 10:00"

# 第三天（11-20 周五 — 逢周末延长 — 11-22 周日 21:00）：平票，替罪羊冤死，保存的网页
$M import "$G" $E/dumps/day3-vote.html --thread vote --day 3
$M advance "$G" --at "2026-11-22 21:00"
$M act "$G" 狐小蓝 bar 沈星河 欢都擎天 --at "2026-11-22 21:10"
$M act "$G" 狐小蓝 last_words --text "我是替罪羊。明天沈星河和欢都擎天不能投票，请大家趁这一天看清楚。" --at "2026-11-22 21:15"
# 第三夜：狼人刀猎人兼警长欢都落兰；猎人开枪带走沈星河，警徽给东方孤月
$M act "$G" 狼人 kill 欢都落兰 --at "2026-11-22 21:30"
$M advance "$G" --at "2026-11-22 22:30"
$M act "$G" 欢都落兰 shoot 沈星河 --at "2026-11-22 22:50"
$M act "$G" 欢都落兰 successor 东方孤月 --at "2026-11-22 22:55"
$M act "$G" 欢都落兰 last_words --text "我是猎人，已经开枪带走沈星河。警徽交给东方孤月。" --at "2026-11-22 23:00"
$M act "$G" 沈星河 last_words --text "认了，狼队还有人，你们慢慢找。" --at "2026-11-23 07:30"
$M advance "$G" --at "2026-11-23 10:00"

# 第四天（11-23 周一 — 11-24 周二 21:00）：欢都擎天被禁票，村民误放逐南宫羽，纯文本存档
$M import "$G" $E/dumps/day4-vote.txt --thread vote --day 4
$M advance "$G" --at "2026-11-24 21:00"
$M act "$G" 南宫羽 last_words --text "我真的是村民。剩下的狼只能是欢都擎天。" --at "2026-11-24 21:12"
# 第四夜：狼人刀王权弘业（女巫已无药）
$M act "$G" 狼人 kill 王权弘业 --at "2026-11-24 21:20"
$M advance "$G" --at "2026-11-24 22:30"
$M act "$G" 王权弘业 last_words --text "我是村民。擎天被禁票还急着投南宫羽，出他。" --at "2026-11-24 23:05"
$M advance "$G" --at "2026-11-25 10:00"

# 第五天（11-25 周三 — 11-26 周四 21:00）：放逐最后一只狼欢都擎天，村民阵营胜利，手机版接口 JSON
$M import "$G" $E/dumps/day5-vote.json --thread vote --day 5
$M advance "$G" --at "2026-11-26 21:00"

$M status "$G"
$M check "$G"

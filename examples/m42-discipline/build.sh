#!/usr/bin/env bash
# 重建 examples/m42-discipline 的账本：本例用到的全部 modtool 命令，按执行顺序，时间全部用 --at 给出。
# 用法（在仓库根目录）：bash examples/m42-discipline/build.sh /tmp/m42-discipline
# 目标文件夹里已有 ledger.yaml 时拒绝运行（不会覆盖 examples/m42-discipline 自己的账本）。
# 两条命令是故意被拒绝的（导演的决定违反规则：以代码 1 退出，什么也不写），后面写了 `|| true` 让脚本继续。
set -euo pipefail
G=${1:?用法：bash examples/m42-discipline/build.sh 目标文件夹}
G=$(realpath -m -- "$G")   # 相对路径按调用时的当前目录理解
cd "$(dirname "$0")/../.."
M=${MODTOOL:-.venv/bin/modtool}
E=examples/m42-discipline
D=$E/dumps
if [ -e "$G/ledger.yaml" ]; then
  echo "$G/ledger.yaml 已存在，拒绝覆盖" >&2
  exit 1
fi

# 开局：身份写在名单里，种子留作抽签用
$M new "$G" --game m42 --roster $E/roster.yaml --seed 20261102

# 第一天（11-02 周一 10:00 — 11-03 周二 21:00）：警长竞选
# 讨论帖：手机版接口 JSON；投票帖：纯文本
$M import "$G" $D/day1-discussion.json --thread discussion --day 1
$M import "$G" $D/day1-vote.txt --thread vote --day 1
$M assistant "$G" 毛毛 --helper 老猫不睡 --games 2                 # 受理：此前 2 场
$M assistant "$G" 杨十三 --helper 九命猫 --games 5 || true         # 故意被拒绝：此前 5 场（M42-R16）
$M card "$G" 图麟 blue --reason "使用导演专用的红色字体" --floor 21 --at "2026-11-02 15:40"
$M card "$G" 李雪松 yellow --reason "情绪发言" --floor 73 --at "2026-11-03 17:00"
$M schedule "$G"                                                    # 关门时间：11-03 21:00
$M advance "$G" --at "2026-11-03 21:00"
$M waive "$G" 花翎 --day 1 --rule a --reason "赛前已私信导演请假一天"
# 第一夜：狼人刀东方洛，女巫不用药，预言家验黑狐娘娘
$M act "$G" 狼人 kill 东方洛 --at "2026-11-03 21:30"
$M act "$G" 清彦 check 黑狐娘娘 --at "2026-11-03 21:50"
$M advance "$G" --at "2026-11-03 22:40"
$M act "$G" 东方洛 last_words --text "我是村民。警长清彦请带好队。" --at "2026-11-04 08:00"
$M advance "$G" --at "2026-11-04 10:00"

# 第二天（11-04 周三 — 11-05 周四 21:00）：放逐黑狐娘娘
# 讨论帖：保存的网页；投票帖：手机版接口 JSON
$M import "$G" $D/day2-discussion.html --thread discussion --day 2
$M import "$G" $D/day2-vote.json --thread vote --day 2
$M substitute "$G" 西西 --player 西西的室友小北 --at "2026-11-04 12:00"
$M card "$G" 东方洛 yellow --reason "已出局角色在讨论帖发言（诈尸）" --floor 6 --at "2026-11-04 11:20"
$M card "$G" 图麟 blue --reason "提及过去场次" --floor 25 --at "2026-11-04 15:10"
$M card "$G" 云霄 yellow --reason "使用导演专用的放大字体" --floor 42 --at "2026-11-04 20:45"
$M withdraw "$G" 5 --reason "楼层看错：42 楼是花翎发的，不是云霄"
$M card "$G" 花翎 blue --reason "使用导演专用的放大字体" --floor 42 --at "2026-11-04 20:50"
$M schedule "$G"                                                    # 关门时间：11-05 21:00
$M advance "$G" --at "2026-11-05 21:00"
$M act "$G" 黑狐娘娘 last_words --text "[b]我是村民[/b]，清彦是悍跳，[color=red]别信他[/color]。" --at "2026-11-05 21:20"
# 第二夜：狼人刀花翎，女巫救下；预言家验北山妖帝
$M act "$G" 狼人 kill 花翎 --at "2026-11-05 21:30"
$M act "$G" 月红 save 花翎 --at "2026-11-05 21:45"
$M act "$G" 清彦 check 北山妖帝 --at "2026-11-05 21:50"
$M advance "$G" --at "2026-11-05 22:40"
$M advance "$G" --at "2026-11-06 10:00"

# 第三天（11-06 周五 — 逢周末延长 — 11-08 周日 21:00）：放逐北山妖帝；李雪松三黄合一红，投票结算后罚下
# 讨论帖：纯文本；投票帖：保存的网页
$M import "$G" $D/day3-discussion.txt --thread discussion --day 3
$M import "$G" $D/day3-vote.html --thread vote --day 3
$M card "$G" 图麟 blue --reason "讨论场外助理" --floor 15 --at "2026-11-06 16:20"
$M card "$G" 李雪松 yellow --reason "明显的发誓句式" --floor 35 --at "2026-11-07 14:10"
$M schedule "$G"                                                    # 关门时间：11-08 21:00
$M advance "$G" --at "2026-11-08 21:00"
$M decide "$G" 李雪松 --camp-stays --at "2026-11-08 21:10"
$M act "$G" 北山妖帝 last_words --text "认了。狼队还有人，你们慢慢找。" --at "2026-11-08 21:20"
# 第三夜：狼人刀毛毛；预言家验云霄
$M act "$G" 狼人 kill 毛毛 --at "2026-11-08 21:30"
$M act "$G" 清彦 check 云霄 --at "2026-11-08 21:50"
$M advance "$G" --at "2026-11-08 22:40"
$M act "$G" 毛毛 last_words --text "我是村民，最后一只狼在图麟身上。" --at "2026-11-09 08:00"
$M advance "$G" --at "2026-11-09 10:00"

# 第四天（11-09 周一 — 延时成功 — 11-11 周三 21:00）：放逐杨十三
# 讨论帖：手机版接口 JSON；进程帖：保存的网页；投票帖：纯文本
$M import "$G" $D/day4-discussion.json --thread discussion --day 4
$M import "$G" $D/day4-process.html --thread process --day 4
$M import "$G" $D/day4-vote.txt --thread vote --day 4
$M substitute "$G" 西西 --player 西西的表哥 --at "2026-11-10 10:00" || true   # 故意被拒绝：每个角色限换一次替补
$M schedule "$G"                                                    # 关门时间：11-11 21:00
$M advance "$G" --at "2026-11-11 21:00"
$M act "$G" 杨十三 last_words --text "我真的是村民。" --at "2026-11-11 21:15"
# 第四夜：狼人刀花翎（救药已用）；预言家验月红
$M act "$G" 狼人 kill 花翎 --at "2026-11-11 21:30"
$M act "$G" 清彦 check 月红 --at "2026-11-11 21:50"
$M advance "$G" --at "2026-11-11 22:40"
$M advance "$G" --at "2026-11-12 10:00"

# 第五天（11-12 周四，加速成功，当天 21:00 关门）：放逐图麟，村民阵营胜利
# 讨论帖：纯文本；进程帖：纯文本；投票帖：手机版接口 JSON
$M import "$G" $D/day5-discussion.txt --thread discussion --day 5
$M import "$G" $D/day5-process.txt --thread process --day 5
$M import "$G" $D/day5-vote.json --thread vote --day 5
$M schedule "$G"                                                    # 关门时间：11-12 21:00
$M advance "$G" --at "2026-11-12 21:00"

$M status "$G"
$M check "$G"           # 通过：上面两条故意被拒绝的命令什么也没写

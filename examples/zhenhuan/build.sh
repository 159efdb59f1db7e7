#!/usr/bin/env bash
# 重建 examples/zhenhuan 的账本：本例用到的全部 modtool 命令，按执行顺序。
# 用法（在仓库根目录）：bash examples/zhenhuan/build.sh /tmp/zhenhuan
# 目标文件夹里已有 ledger.yaml 时拒绝运行（不会覆盖 examples/zhenhuan 自己的账本）。
# 故意不受理的提交（记入账本但不起作用：modtool 以代码 0 退出并说「不受理」，G-R1）用 refused 包起来。
set -euo pipefail
G=${1:?用法：bash examples/zhenhuan/build.sh 目标文件夹}
G=$(realpath -m -- "$G")   # 相对路径按调用时的当前目录理解
cd "$(dirname "$0")/../.."
M=${MODTOOL:-.venv/bin/modtool}
E=examples/zhenhuan
if [ -e "$G/ledger.yaml" ]; then
  echo "$G/ledger.yaml 已存在，拒绝覆盖" >&2
  exit 1
fi
# 白天的提名与投票：默认从 dumps/ 导入投票帖。ZH_VOTES=direct 时改用逐条 nominate/vote 命令记录
# 同样的提名与投票（同样的顺序）：导入后的重放目前会崩溃（见 README「已知问题」），在修好之前
# 本目录的 ledger.yaml 用默认的导入方式生成（投票帖即事实）。
ZH_VOTES=${ZH_VOTES:-import}
day_votes() {  # day_votes 天 存档 "nominate 5 3" "vote 2 3" …
  local day=$1 dump=$2; shift 2
  if [ "$ZH_VOTES" = direct ]; then
    local c
    for c in "$@"; do $M ${c%% *} "$G" ${c#* }; done
  else
    $M import "$G" "$dump" --thread vote --day "$day"
  fi
}
refused() {  # 这条提交应当不受理：记入账本（代码 0），并说「不受理」
  local said
  said=$(mktemp)
  if ! "$@" 2>"$said"; then cat "$said" >&2; echo "本应记入账本（不受理），却没有写：$*" >&2; exit 1; fi
  if ! grep -q 不受理 "$said"; then echo "本应不受理，却被接受了：$*" >&2; exit 1; fi
  cat "$said" >&2
  rm -f "$said"
}

# 开局：10 人，种子 24；要求皇上、安陵容、华妃、甄嬛、果郡王、三阿哥、玉娆在场
$M new "$G" --game zhenhuan --roster $E/roster.txt --seed 24 \
  --require 皇上 --require 安陵容 --require 华妃 --require 甄嬛 \
  --require 果郡王 --require 三阿哥 --require 玉娆

# 第一夜
$M act "$G" 1 poison 8              # 安陵容：香粉毒敬妃
$M act "$G" 4 protect 7             # 果郡王：守护玉娆
$M act "$G" 3 yizhanghong 5         # 华妃：一丈红赐浣碧
$M answer "$G" night1/yurao_bind 8号   # 说书人：玉娆首夜得知 8 号敬妃
$M info "$G" 7 "8号：敬妃"
$M info "$G" 5 "恶魔与最近的爪牙间距为 3"   # 浣碧坐在果郡王身边，整局醉酒：给假信息（真实为 1）
$M answer "$G" night1/false_info/seat8 "错误：5"   # 敬妃中毒：说书人决定给假信息
$M info "$G" 8 "场上女性玩家（含太监、太医）共 5 名"
$M advance "$G"

# 第一天：纯文本存档；浣碧提名即死（一丈红），亡魂票，无人处决
day_votes 1 $E/dumps/day1-vote.txt "nominate 5 3" "vote 2 3" "vote 4 3" "vote 6 3" "vote 5 3" \
  "nominate 1 6" "vote 3 6" "vote 10 6" "vote 1 6"
$M advance "$G"

# 第二夜
$M act "$G" 1 poison 9              # 安陵容：香粉毒太后
$M act "$G" 1 curse 4               # 安陵容：诅咒果郡王（第三夜开始时死亡）
$M act "$G" 4 protect 8             # 果郡王：守护敬妃
$M act "$G" 3 yizhanghong 9         # 华妃：一丈红赐太后（她第二天没有提名，无事）
$M act "$G" 10 kill 2               # 记错了……
$M undo "$G"                        # ……撤销
$M act "$G" 10 kill 8               # 皇上：杀敬妃（被守护，无人死亡）
$M act "$G" 10 favour 7             # 皇上：雨露均沾，玉娆变为宠妃
$M act "$G" 6 ranzhi 4              # 三阿哥：染指果郡王（男性，失败）
$M info "$G" 6 "失败"
$M advance "$G"

# 第二天：手机版接口 JSON；处决华妃
day_votes 2 $E/dumps/day2-vote.json "nominate 2 3" "vote 4 3" "vote 2 3" "nominate 10 9" "vote 1 9" \
  "vote 6 3" "vote 3 9" "vote 8 3" "vote 10 9" "vote 7 9" "vote 9 3"
$M advance "$G"

# 第三夜：诅咒生效，果郡王死亡
$M act "$G" 7 pin 9                 # 宠妃（玉娆）：按住太后
refused $M act "$G" 1 poison 6      # 安陵容：香粉只能给女性，三阿哥是男性——当场不受理（仍记入账本，ZH-R2）
$M act "$G" 6 ranzhi 7              # 三阿哥：染指宠妃，成功，玉娆恢复为善良的玉娆
$M info "$G" 6 "成功"
$M act "$G" 10 kill 8               # 皇上：杀敬妃；玉娆首夜绑定敬妃，连带死亡
$M info "$G" 8 "1号、10号"          # 敬妃夜里被杀：得知存活的邪恶玩家
$M advance "$G"

# 第三天：直接记录提名与投票；亡魂票；处决安陵容
$M nominate "$G" 9 1
$M vote "$G" 9 1
$M vote "$G" 2 1
$M vote "$G" 6 1
$M vote "$G" 4 1                    # 亡魂票
$M vote "$G" 8 1                    # 亡魂票
$M vote "$G" 7 1                    # 亡魂票
$M nominate "$G" 1 6
$M vote "$G" 1 6
$M vote "$G" 10 6
$M vote "$G" 3 6                    # 亡魂票（华妃）
$M advance "$G"

# 第四夜：皇上杀甄嬛，甄嬛反杀成为女皇
refused $M act "$G" 6 kill 9        # 说书人手误：三阿哥没有 kill——当场不受理（仍记入账本）
$M act "$G" 6 ranzhi 9              # 三阿哥：染指太后，失败
$M info "$G" 6 "失败"
$M act "$G" 10 kill 2
$M advance "$G"

# 第四天：三阿哥提名女皇（甄嬛），票数不够；太后强制处决；善良阵营获胜
$M nominate "$G" 6 2
$M vote "$G" 6 2
refused $M vote "$G" 5 2            # 浣碧的亡魂票第一天已用——当场不受理（仍记入账本，ZH-R11）
$M act "$G" 9 force_execute 2
$M advance "$G"

$M status "$G"
$M check "$G"                        # 通过：上面三条故意不受理的提交单独列出，不算账本损坏

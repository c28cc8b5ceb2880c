# 网页的中文字符串。每条消息在 ../en/web.ftl 中都有对应（有测试检查）。
site-name = 围棋联赛
skip-to-content = 跳到正文
nav-label = 主导航
nav-home = 首页
nav-watch = 观战
nav-admin = 账号管理
login = 登录
logout = 退出
refused = 已拒绝
not-found = 没有这个页面。

## 围棋术语
black = 黑
white = 白
captures = 提子
warnings = 警告
komi = 贴目
komi-default = 按规则贴目
pass = 停一手
resign = 认输
play = 落子
move-number = 第{ $n }手
last-move = 最后一手
byo-yomi = 读秒
periods-left = 还剩{ $n }次
moves-left = 还剩{ $n }手

## 阶段
phase-new = 未开始
phase-nigiri = 猜先
phase-ready = 等待开始
phase-playing = 对局中
phase-paused = 暂停
phase-adjourned = 封盘
phase-scoring = 数子
phase-ended = 终局

## 规则
rules-chinese = 中国规则
rules-japanese = 日本规则
rules-korean = 韩国规则
rules-aga = 美国（AGA）规则
rules-new-zealand = 新西兰规则
rules-tromp-taylor = Tromp-Taylor 规则
rules-ing = 应氏规则
rules-ancient = 古代中国规则

## 计时方式
time-chinese = 读秒（保留分钟）
time-japanese = 日式读秒
time-canadian = 加拿大式读秒
time-moves-per-period = 每段限定手数
time-fischer = 费舍尔加秒
time-absolute = 包干制
time-none = 不计时

## 角色
role-player = 棋手
role-referee = 裁判
role-chief-referee = 裁判长
role-organiser = 组织者
role-broadcaster = 转播
role-spectator = 观众
role-reviewer = 段位审核员
role-admin = 管理员

## 字段
field-name = 账号名
field-display-name = 显示名
field-password = 密码
field-new-password = 新密码（至少8个字符）
field-role = 角色
field-roles = 角色
field-status = 状态
field-opponent = 对手（账号名）
field-size = 棋盘
field-rules = 规则
field-color = 执子
field-handicap = 让子数
field-time = 计时方式
field-main-minutes = 基本用时（分钟）
field-main-seconds = 基本用时（秒）
field-periods = 读秒次数 / 保留分钟
field-period-seconds = 每次读秒（秒）
field-moves = 每段手数
field-increment = 每手加秒（秒）
field-label = 名称
field-days = 有效期（天）
field-reason = 理由
field-note = 说明
field-minutes = 迟到分钟数
field-outcome = 结果
form-out-of-range = { $field }须在 { $min } 到 { $max } 之间。
form-unknown = 请从列表中选择{ $field }。

## 登录与初始化
login-title = 登录
login-wrong = 账号名或密码错误。
login-disabled = 此账号已停用，请联系管理员。
login-limited = 尝试次数过多，请 { $seconds } 秒后再试。
setup-title = 创建第一个管理员
setup-intro = 本服务器还没有管理员。此链接只能使用一次：在这里创建的账号拥有管理员角色。
setup-create = 创建管理员
setup-gone = 此链接已被使用（或服务器已重启）。请登录，或联系管理员。

## 首页与大厅
welcome-title = 欢迎
welcome-text = 观看正在进行的对局，或登录下棋。
live-games = 正在进行的对局
live-games-none = 现在没有正在进行的对局。
my-games = 我的对局
my-games-none = 你还没有对局。可以在下面发起挑战。
next-game = 你的下一盘比赛
next-game-line = { $tournament }，第{ $round }轮，第{ $board }台
starts-at = 开始时间 { $ms }
watch-several = 同时观看多盘
col-size = 棋盘
col-move = 手数
col-clocks = 用时
col-state = 状态

## 挑战
challenges-title = 挑战
challenges-none = 没有待接受的挑战。
challenge-new = 发起挑战
challenge-anyone = 任何人
challenge-offer = 发起挑战
challenge-accept = 接受
challenge-decline = 拒绝
challenge-cancel = 撤回
challenge-from = { $by } 向你发起挑战
challenge-yours = 你向 { $to } 发起的挑战
challenge-terms = { $size }路，{ $rules }，让{ $handicap }子，贴目 { $komi }，{ $time }，{ $color }
challenge-yourself = 不能挑战自己。
challenge-no-such-player = 没有这个账号名的棋手。
challenge-gone = 此挑战已不再有效。
challenge-not-yours = 此挑战不由你回应。
challenge-memory-note = 待接受的挑战只是邀请：服务器重启后会撤回。已接受的对局会保存。
color-nigiri = 猜先
color-black = 我执黑
color-white = 我执白

## 对局页
game-title = 对局
game-not-found = 没有这盘对局。
board-label = { $n }路棋盘
board-help = 点击或轻触交叉点落子。键盘：方向键移动，回车落子；也可以在下方输入坐标，如 D4。
type-vertex = 输入坐标
moves-title = 棋谱
link-sgf = SGF 棋谱
link-overlay = 直播画面
sound-on = 语音读秒：开
sound-off = 语音读秒：关
confirm = 确认
cancel = 取消
confirm-pass = 确定停一手？连续两次停一手即终局。
confirm-resign = 确定认输？
confirm-seal = 封盘着点为 { $vertex }？对局将暂停。
to-move-black = 黑方行棋
to-move-white = 白方行棋
your-turn = 轮到你下
reconnecting = 连接中断，正在重新连接…
reconnected = 已重新连接。
nigiri-you-guess = 请猜先：单还是双？
nigiri-wait = 等待对方猜先
guess-even = 猜双
guess-odd = 猜单
start-clock = 开始计时
seal = 封盘
seal-help = 请点击封盘的着点。
sealed-note = 已封盘
accept-count = 同意数子结果
dispute-count = 有异议
scoring-help = 点击棋块可标记死活。先显示的是形势判断给出的建议。
scoring-accepted-black = 黑方已同意
scoring-accepted-white = 白方已同意
scoring-waiting = 等待双方同意
count-line = 数子：{ $sgf }（{ $stones }）
result-label = 结果：
done = 完成
vertex-empty = 空
vertex-black = 该点已有黑子。
vertex-white = 该点已有白子。
vertex-dead = 已标记为死子

## 裁判面板
referee-title = 裁判
referee-warn = 警告
referee-pause = 暂停计时
referee-resume = 继续
referee-resume-adjourned = 续弈
referee-start-now = 立即开始
referee-void = 取消最后一手
referee-swap = 交换黑白
referee-lateness = 登记迟到
referee-correct-clock = 校正计时
referee-correct = 校正
referee-chief-note = 作为裁判长，你可以只校正一方的时间。
referee-both-sides-note = 裁判须同时校正双方计时；只校正一方需要裁判长。
referee-adjudicate = 裁定结果
outcome-black = 黑胜
outcome-white = 白胜
outcome-draw = 和棋
outcome-both-lose = 双方负
outcome-no-result = 无胜负
outcome-replay = 重赛

## 观战
watch-title = 多盘观战

## 账号页
account-title = 我的账号
account-password = 密码
account-set-password = 设置密码
account-password-set = 密码已修改。
account-enabled = 正常
account-disabled = 已停用（{ $reason }）
tokens-title = API 令牌
tokens-intro = 令牌让你的程序（对弈程序、自己的直播画面）通过 gRPC 接口以你的身份操作。
tokens-issue = 生成令牌
tokens-issued = 令牌已生成。
tokens-shown-once = 请立即复制：令牌只显示这一次。
tokens-label-example = 我的对弈程序
tokens-none = 没有令牌。
tokens-expires = { $date } 到期
tokens-revoke = 吊销
tokens-revoked = 令牌已吊销，不再有效。
tokens-bad-form = 令牌名称最多60个字符，有效期为1到365天。

## 管理员
admin-title = 账号管理
admin-only = 只有管理员可以管理账号。
admin-new-account = 新建账号
admin-create = 创建
admin-accounts = 所有账号
admin-created = 账号 { $name } 已创建。
admin-disable = 停用
admin-enable = 启用
admin-grant = 授予
admin-revoke = 收回
admin-disabled-reason = 被管理员停用
admin-done-disable = { $name } 已停用：其登录和令牌立即失效。
admin-done-enable = { $name } 已重新启用。
admin-done-grant = 已授予 { $name } 该角色。
admin-done-revoke = 已收回 { $name } 的该角色。

## 拒绝的理由（按代码）
refusal-unknown = 服务器拒绝了此操作。
refusal-unavailable = 暂时无法连接服务器。没有任何改动，请重试。
refusal-signed-out = 你已退出登录，请重新登录。
refusal-csrf = 此表单已过期或来自其他网站（没有有效的 CSRF 令牌）。没有任何改动，请刷新页面后重试。
refusal-not-a-player = 只有棋手可以这样做。
refusal-password-length = 密码须为8到1024个字符。
refusal-request-id-reused = 该请求已用于其他操作，请刷新页面。
refusal-occupied = 该点已有棋子。
refusal-suicide = 本规则不允许自杀。
refusal-ko = 打劫：不能立即提回
refusal-superko = 全局同形：不能重复之前的局面。
refusal-off-board = 该点不在棋盘上。
refusal-game-over = 对局已结束。
refusal-not-your-turn = 还没轮到你。
refusal-not-a-player-of-game = 你不是这盘棋的对局者。
refusal-not-a-referee = 只有本赛事的裁判可以这样做。
refusal-needs-chief-referee = 只有裁判长可以这样做（只校正一方计时）。
refusal-time-expired = 你的时间已用完。
refusal-stale-move-number = 棋盘已有变化，请重新看过再下。
refusal-not-found = 没有这盘对局。
refusal-already-exists = 已经存在。
refusal-wrong-phase = 对局的当前阶段不能这样做。
refusal-swap-too-late = 只能在第10手之前交换黑白。
refusal-nothing-to-void = 没有可以取消的着手。
refusal-not-the-guesser = 由对方猜先。
refusal-not-expired = 时间尚未用完。
refusal-flag-outdated = 计时读数已过时。
refusal-overrun-pass-not-allowed = 本赛事不把超时算作停一手。
refusal-not-the-sealer = 只有轮到下的一方可以封盘。
refusal-invalid-setup = 对局设置无效。
refusal-bad-point = 这不是本棋盘上的点。
refusal-clock = 计时器拒绝了这次校正。
refusal-not-a-stone = 标记为死子的点上没有棋子。
refusal-lateness-already-reported = 已经登记过该棋手的迟到。
refusal-out-of-range = 有数值超出范围。
refusal-inconsistent = 对局记录无法重放，已通知管理人员。
refusal-permission-denied = 你不能在这盘棋中这样做。
refusal-bad-request = 无法理解该请求。
refusal-bad-request-id = 请求编号无效。
refusal-bad-color = 请选择黑或白。
refusal-bad-outcome = 请从列表中选择结果。
refusal-text-too-long = 文字太长（最多500个字符）。
refusal-bad-name = 账号名为1到64个字母、数字、“-”或“_”。
refusal-not-an-administrator = 只有管理员可以这样做。
refusal-not-the-holder = 只有账号本人或管理员可以这样做。
refusal-unknown-role = 没有这个角色。
refusal-role-unchanged = 该账号的角色已是如此。
refusal-disabled-unchanged = 该账号已是此状态。
refusal-bad-display-name = 显示名须为1到100个字符。
refusal-unknown-token = 没有这个令牌。
refusal-own-administration = 不能停用自己的账号，也不能收回自己的管理员角色。

## 自助注册
register-title = 注册账号
register-intro = 棋手账号，并以同一名称登记在协会的棋手名册中。
register-create = 注册
register-closed = 自助注册未开放，请联系管理员开通账号。
field-name-zh = 中文姓名
field-name-latin = 拼音或英文姓名（可选）
field-region = 地区（可选）
login-register-link = 还没有账号？注册一个。
account-registry = 棋手名册
account-registry-none = 未登记
admin-registration = 自助注册
admin-registration-open = 自助注册已开放：任何人都可以注册棋手账号。
admin-registration-closed = 自助注册已关闭：只有管理员可以创建账号。
admin-open-registration = 开放自助注册
admin-close-registration = 关闭自助注册
refusal-setting-unchanged = 该设置已是如此。

# The web's English strings. Every message here has a twin in ../zh-CN/web.ftl (a test checks).
site-name = Weiqi league
skip-to-content = Skip to the content
nav-label = Main
nav-home = Home
nav-watch = Watch
nav-admin = Accounts
login = Sign in
logout = Sign out
refused = Refused
not-found = There is no such page.

## Go vocabulary
black = Black
white = White
captures = Captures
warnings = Warnings
komi = Komi
komi-default = the rules' komi
pass = Pass
resign = Resign
play = Play
move-number = Move { $n }
last-move = Last move
byo-yomi = Byo-yomi
periods-left = { $n } left
moves-left = { $n } moves left

## Phases
phase-new = Not started
phase-nigiri = Nigiri
phase-ready = Waiting for the start
phase-playing = In play
phase-paused = Paused
phase-adjourned = Adjourned
phase-scoring = Counting
phase-ended = Finished

## Rules presets
rules-chinese = Chinese
rules-japanese = Japanese
rules-korean = Korean
rules-aga = AGA
rules-new-zealand = New Zealand
rules-tromp-taylor = Tromp-Taylor
rules-ing = Ing (SST)
rules-ancient = Ancient Chinese

## Time systems
time-chinese = Chinese byo-yomi (reserved minutes)
time-japanese = Japanese byo-yomi
time-canadian = Canadian overtime
time-moves-per-period = Moves per period
time-fischer = Fischer increment
time-absolute = Absolute (sudden death)
time-none = No clock

## Roles
role-player = Player
role-referee = Referee
role-chief-referee = Chief referee
role-organiser = Organiser
role-broadcaster = Broadcaster
role-spectator = Spectator
role-reviewer = Certification reviewer
role-admin = Administrator

## Fields
field-name = Account name
field-display-name = Shown name
field-password = Password
field-new-password = New password (8 characters or more)
field-role = Role
field-roles = Roles
field-status = Status
field-opponent = Opponent (account name)
field-size = Board size
field-rules = Rules
field-color = Colours
field-handicap = Handicap stones
field-time = Time system
field-main-minutes = Main time (minutes)
field-main-seconds = main time (seconds)
field-periods = Periods / reserved minutes
field-period-seconds = Period (seconds)
field-moves = Moves per period
field-increment = Increment (seconds)
field-label = Label
field-days = Valid for (days)
field-reason = Reason
field-note = Note
field-minutes = Minutes late
field-outcome = Outcome
form-out-of-range = { $field } must be between { $min } and { $max }.
form-unknown = Choose one of the listed { $field }.

## Login and setup
login-title = Sign in
login-wrong = Wrong name or password.
login-disabled = This account is disabled. Ask an administrator.
login-limited = Too many attempts. Try again in { $seconds } seconds.
setup-title = Create the first administrator
setup-intro = No account can administer this server yet. This link works once: the account you create here holds the administrator role.
setup-create = Create the administrator
setup-gone = This link has been used (or the server was restarted). Sign in, or ask an administrator.

## Home and lobby
welcome-title = Welcome
welcome-text = Watch the games being played now, or sign in to play.
live-games = Live games
live-games-none = No game is being played right now.
my-games = My games
my-games-none = You have no games yet. Offer a challenge below.
next-game = Your next tournament game
next-game-line = { $tournament }, round { $round }, board { $board }
starts-at = starts at { $ms }
watch-several = Watch several boards
col-size = Board
col-move = Move
col-clocks = Clocks
col-state = State

## Challenges
challenges-title = Challenges
challenges-none = No open challenges.
challenge-new = Offer a challenge
challenge-anyone = anyone
challenge-offer = Offer the challenge
challenge-accept = Accept
challenge-decline = Decline
challenge-cancel = Cancel
challenge-from = { $by } challenges you
challenge-yours = Your challenge to { $to }
challenge-terms = { $size }×{ $size }, { $rules } rules, handicap { $handicap }, komi { $komi }, { $time }, { $color }
challenge-yourself = You cannot challenge yourself.
challenge-no-such-player = There is no player with that account name.
challenge-gone = This challenge is no longer open.
challenge-not-yours = This challenge is not yours to answer.
challenge-memory-note = Open challenges are offers: a server restart withdraws them. Games, once accepted, are kept.
color-nigiri = nigiri
color-black = I take Black
color-white = I take White

## The game page
game-title = Game
game-not-found = There is no such game.
board-label = { $n }×{ $n } board
board-help = Click or tap a point to play. With the keyboard: arrow keys move, Enter plays; or type a point such as D4 below.
type-vertex = Type a point
moves-title = Moves
link-sgf = SGF record
link-overlay = Broadcast overlay
sound-on = Spoken calls: on
sound-off = Spoken calls: off
confirm = Confirm
cancel = Cancel
confirm-pass = Pass? Two passes in a row end play.
confirm-resign = Resign this game?
confirm-seal = Seal { $vertex } as your move? The game is adjourned.
to-move-black = Black to play
to-move-white = White to play
your-turn = Your move
reconnecting = Connection lost: reconnecting…
reconnected = Reconnected.
nigiri-you-guess = Guess: odd or even?
nigiri-wait = Waiting for the nigiri guess
guess-even = Even
guess-odd = Odd
start-clock = Start the clock
seal = Seal a move
seal-help = Click the point you seal.
sealed-note = a move is sealed
accept-count = Accept the count
dispute-count = Dispute
scoring-help = Click a chain to mark it dead or alive. The estimator's suggestion is shown first.
scoring-accepted-black = Black has accepted
scoring-accepted-white = White has accepted
scoring-waiting = Waiting for both players to accept
count-line = Count: { $sgf } ({ $stones })
result-label = Result:
done = Done
vertex-empty = empty
vertex-black = That point holds a black stone.
vertex-white = That point holds a white stone.
vertex-dead = marked dead

## Referee panel
referee-title = Referee
referee-warn = Warn
referee-pause = Pause the clocks
referee-resume = Resume
referee-resume-adjourned = Resume the adjourned game
referee-start-now = Start now
referee-void = Void the last move
referee-swap = Swap colours
referee-lateness = Report lateness
referee-correct-clock = Correct the clocks
referee-correct = Correct
referee-chief-note = As chief referee you may correct one side only.
referee-both-sides-note = A referee corrects both clocks together; one side alone needs the chief referee.
referee-adjudicate = Decide the game
outcome-black = Black wins
outcome-white = White wins
outcome-draw = Draw
outcome-both-lose = Both lose
outcome-no-result = No result
outcome-replay = Replay

## Watch
watch-title = Live boards

## Account page
account-title = My account
account-password = Password
account-set-password = Set the password
account-password-set = The password is changed.
account-enabled = enabled
account-disabled = disabled ({ $reason })
tokens-title = API tokens
tokens-intro = Tokens let your programs (a bot, your own overlay) act as you through the gRPC API.
tokens-issue = Issue a token
tokens-issued = The token is issued.
tokens-shown-once = Copy it now: it is shown only once.
tokens-label-example = my bot
tokens-none = No tokens.
tokens-expires = expires { $date }
tokens-revoke = Revoke
tokens-revoked = The token is revoked: it no longer works.
tokens-bad-form = Give the token a label of up to 60 characters and a validity of 1 to 365 days.

## Administrators
admin-title = Accounts
admin-only = Only administrators may manage accounts.
admin-new-account = New account
admin-create = Create
admin-accounts = All accounts
admin-created = The account { $name } is created.
admin-disable = Disable
admin-enable = Enable
admin-grant = Grant
admin-revoke = Revoke
admin-disabled-reason = disabled by an administrator
admin-done-disable = { $name } is disabled: their sessions and tokens stop working now.
admin-done-enable = { $name } is enabled again.
admin-done-grant = The role is granted to { $name }.
admin-done-revoke = The role is revoked from { $name }.

## Refusals, by their stable codes
refusal-unknown = The server refused this.
refusal-unavailable = The server cannot be reached right now. Nothing was changed; try again.
refusal-signed-out = You are signed out. Sign in again.
refusal-csrf = This form expired or came from another site (no valid CSRF token). Nothing was changed; reload the page and try again.
refusal-not-a-player = Only players can do that.
refusal-password-length = A password has 8 to 1024 characters.
refusal-request-id-reused = That request was already used for something else. Reload the page.
refusal-occupied = That point is occupied.
refusal-suicide = Suicide is not allowed under these rules.
refusal-ko = Ko: you cannot retake at once.
refusal-superko = Superko: this would repeat an earlier position.
refusal-off-board = That point is off the board.
refusal-game-over = The game is over.
refusal-not-your-turn = It is not your turn.
refusal-not-a-player-of-game = You are not a player of this game.
refusal-not-a-referee = Only a referee of this game's event may do that.
refusal-needs-chief-referee = Only the chief referee may do that (a one-sided clock correction).
refusal-time-expired = Your time has run out.
refusal-stale-move-number = The board changed meanwhile; look again and play.
refusal-not-found = There is no such game.
refusal-already-exists = It exists already.
refusal-wrong-phase = That cannot be done at this stage of the game.
refusal-swap-too-late = Colours can only be swapped up to move 10.
refusal-nothing-to-void = There is no move to void.
refusal-not-the-guesser = The other player guesses the nigiri.
refusal-not-expired = The time has not run out.
refusal-flag-outdated = The clock reading was outdated.
refusal-overrun-pass-not-allowed = This event does not count an overrun as a pass.
refusal-not-the-sealer = Only the player to move seals a move.
refusal-invalid-setup = These game settings are not valid.
refusal-bad-point = That is not a point on this board.
refusal-clock = The clock refused that correction.
refusal-not-a-stone = A point marked dead holds no stone.
refusal-lateness-already-reported = Lateness was already reported for that player.
refusal-out-of-range = A value is out of its range.
refusal-inconsistent = The game's record does not replay; an operator has been alerted.
refusal-permission-denied = You may not do that in this game.
refusal-bad-request = The request was not understood.
refusal-bad-request-id = The request id is not valid.
refusal-bad-color = Choose Black or White.
refusal-bad-outcome = Choose an outcome from the list.
refusal-text-too-long = That text is too long (500 characters at most).
refusal-bad-name = Account names are 1–64 letters, digits, '-' or '_'.
refusal-not-an-administrator = Only an administrator may do that.
refusal-not-the-holder = Only the account's holder or an administrator may do that.
refusal-unknown-role = There is no such role.
refusal-role-unchanged = The account's roles are already so.
refusal-disabled-unchanged = The account is already so.
refusal-bad-display-name = The shown name must be 1–100 characters.
refusal-unknown-token = There is no such token.
refusal-own-administration = You cannot disable your own account or revoke your own administrator role.

## Self-registration
register-title = Create an account
register-intro = A player account, entered in the association's player registry under the same name.
register-create = Create my account
register-closed = Self-registration is closed. Ask an administrator for an account.
field-name-zh = Name in Chinese characters
field-name-latin = Name in Latin letters (optional)
field-region = Region (optional)
login-register-link = No account yet? Create one.
account-registry = Player registry
account-registry-none = not registered
admin-registration = Self-registration
admin-registration-open = Self-registration is open: anyone may create a player account.
admin-registration-closed = Self-registration is closed: only administrators create accounts.
admin-open-registration = Open self-registration
admin-close-registration = Close self-registration
refusal-setting-unchanged = The setting is already so.

// UI text in English and Simplified Chinese. t("key", {vars}) fills in {name} fields.
// Static text in index.html carries data-i18n (text), data-i18n-label (aria-label) or
// data-i18n-title (title); applyStatic() fills them in for the current language.
//
// What the page keeps to show later (the notice, the last thing said) is kept as a
// message, not as text, so that a change of language shows it anew in the new language
// (textOf renders it when shown). A message is plain data:
//   "text"                  text that is the same in every language (a move, a number)
//   {key, vars}             msg(key, vars): the table's text, its fields filled in; a
//                           field's value may itself be a message
//   {texts: {en, zh}}       inLanguages(texts): a text the tables do not hold, in each
//                           language
//   [message, ...]          sentences in a row (joinSentences)
//   {join: [message, ...], sep: message}   joined(parts, sep): a list ("1 blunder, 2
//                           mistakes"), its separator in each language too

import { LEVELS_EN, LEVELS_ZH } from "./i18n-levels.js";
import { PLAY_EN, PLAY_ZH } from "./i18n-play.js";
import { OPENING_EN, OPENING_ZH } from "./opening-words.js";
import { RECORD_ERRORS_EN } from "./record-errors.js";

const en = {
  tagline: "Five in a row against an engine running in your browser",
  newGame: "New game", setup: "New game…", undo: "Undo", redo: "Redo", hint: "Hint",
  swap: "Swap sides", analyse: "Analyse", stopAnalyse: "Stop analysis", moveNow: "Move now",
  retry: "Retry engine", records: "Records…", close: "Close", start: "Start", cancel: "Cancel",
  blackL: "black", whiteL: "white", youPlay: "You play", engineLevel: "Level", black: "Black", white: "White",
  blackFirst: "Black (first)", firstMove: "First move", rule: "Rule",
  freestyle: "Freestyle (five or more)", standard: "Standard (exactly five)", strength: "Level",
  renju: "Renju (black: exactly five, and forbidden points)",
  renjuBlackFirst: "In renju black moves first, and may not make an overline, a double four or a double three.",
  boardSize: "Board size",
  levelOption: "{n} · {name}", levelOptionRated: "{n} · {name} (≈ {rating})",
  levelDetails: "{rating} {record}",
  levelRatedShort: "Rating about {rating}.", levelUnrated: "Rating not yet measured.",
  levelRated: "Details: Elo {rating} from engine matches (the greedy reference player = {anchor}).",
  levelUnlimitedRating: "No rating of its own: at least Expert's strength, more the longer it thinks.",
  levelRecord: "Won {won}, lost {lost}, drawn {drawn} at this level.", levelNoGames: "No games at this level yet.",
  levelWon: "You beat level {n}, {name}! Ready for level {next}, {nextName}?", playLevel: "Play level {n}: {name}", histLevel: "level {n}",
  levelEasier: "Three losses in a row at level {n}. Level {lower}, {lowerName}, may be more fun for now, if you like.",
  howToPlay1: "Five stones in a row (across, down or diagonally) wins.",
  howToPlayFirst: "You are {color} and move first: tap or click a point; the engine answers.",
  howToPlaySecond: "You are {color}: the engine moves first, then you tap or click a point.",
  navFirst: "First move", navPrev: "Previous move", navNext: "Next move", navLast: "Last move",
  navPos: "Move {n} of {total}", moves: "Moves", noMoves: "No moves yet.",
  movesScroll: "↓ The list scrolls: all {n} moves are in it.",
  thinking: "Engine thinking", score: "Score", depth: "Depth", speed: "Speed", source: "Source",
  pv: "Best line", showPv: "Show best line on the board", lastEngine: "Engine's last move",
  evalBar: "Evaluation: {text}",
  display: "Display", numbers: "Move numbers", coords: "Coordinates", sound: "Move sound",
  threads: "Threads", threadsTitle: "Search workers (each its own Python); 1 = a single worker",
  theme: "Theme", themeAuto: "System", themeLight: "Light", themeDark: "Dark", language: "Language",
  help: "Click or tap an intersection. Keyboard: focus the board, arrows move, Enter or Space places a stone. " +
    "Alt+arrows or arrows outside the board browse the game. Five in a row wins.",
  // status
  st_loading: "loading engine...", st_restarting: "restarting engine...", st_yourTurnLoading: "your turn (engine loading...)",
  st_thinking: "thinking...", st_yourTurn: "your turn", st_analysing: "analysing", st_review: "reviewing the game",
  st_error: "engine error", st_draw: "draw — the board is full", st_wins: "{color} wins",
  youAre: "You play {color}.", youAreFirst: "You play {color} and move first.",
  youWin: "You win — well played!", engineWins: "The engine wins this one.", nobodyWins: "Nobody wins this one.",
  pressNew: " Press New game to play again.", analysisLine: "Analysis: play either colour, the engine only comments.",
  reviewLine: "The engine is to move here: go forward, or Swap sides to let it play from here.",
  rule_freestyle: "freestyle", rule_standard: "standard", rule_renju: "renju", setupLine: "Game:\u00a0{setup}.", setupSep: ", ",
  shape_overline: "overline", shape_double_four: "double four", shape_double_three: "double three",
  // announcements
  youPlayMove: "You play {move}.", enginePlays: "Engine plays {move}.", playsMove: "{color} plays {move}.",
  blackWins: " Black wins.", whiteWins: " White wins.", isDraw: " The game is a draw.",
  gameOver: "The game is over. Start a new game.", waitEngine: "Wait for the engine.", taken: "{move} is taken.",
  forbiddenMove: "Black may not play {move}: it makes a {shape}, forbidden in renju.",
  forbiddenCursor: "forbidden for black: {shape}", forbiddenLegend: "Crosses mark the points black may not play.",
  engineToMoveHere: "The engine is to move here. Press Swap sides to play this side.",
  newGameAnn: "New game. You play {color}.", takenBack: "Move taken back.", redone: "Move replayed.",
  atMove: "Move {n}: {move}.", atStart: "Start of the game.",
  hintIs: "Hint: {move}.", hintBusy: "The engine is busy; try the hint again in a moment.",
  swapped: "You now play {color}.",
  // notices
  restarted: "The engine was restarted. Play on.",
  tooLong: "The engine took too long and was restarted. It will move as soon as it is back.",
  cannotStart: "The engine could not be started: {err}. Reload the page to try again.",
  problem: "Engine problem: {err}. Press Retry engine to continue.",
  engineForbidden: "the engine chose {move}, forbidden for black ({shape}); it was not played",
  sideNext: "The new side applies from the next game (press New game).",
  corruptGame: "The saved game could not be read and was discarded.",
  corruptSettings: "Saved settings could not be read; the defaults are used.",
  corruptHistory: "The list of finished games could not be read and was cleared.",
  droppedHistory: "Some finished games could not be read and were removed from the list.",
  unknownLevel: "The saved game's level {level} is not a level; it is now played at level {n}.",
  badSeed: "The saved game's seed {seed} could not be read; seed 0 is used.",
  corruptResults: "Your results per level could not be read and were cleared.",
  droppedResults: "Some of your results per level could not be read and were removed.",
  badLink: "The link could not be opened: {err}. Your current game is unchanged.",
  linkOpened: "Opened the position from the link.",
  updated: "A new version of the page is ready; reload to use it.",
  offlineReady: "Ready for offline play.",
  // records
  recordsTitle: "Game records", moveListLabel: "Move list (like h8 i9 j10)", loadMoves: "Load moves",
  copyMoves: "Copy moves", shareLabel: "Share link", copyLink: "Copy link", psqExport: "Download .psq",
  psqImport: "Open .psq file…", history: "Finished games", noHistory: "No finished games yet.", load: "Load",
  copied: "Copied.", copyFailed: "Copy the text by hand (select it, Ctrl+C).",
  importBad: "Could not load: {err}. The current game is unchanged.", imported: "Loaded {n} moves.",
  res_black: "Black won", res_white: "White won", res_draw: "Draw",
  // dialog
  dialogTitle: "New game", whiteFirst: "White first", blackFirstShort: "Black first",
  src_book: "opening book", src_threat: "threat search", src_search: "search", src_forced: "forced",
  src_guard: "renju check (the engine's choice was forbidden)",
  src_level: "level's choice", src_fallback: "fallback (the search failed)",
  winsIn: "{color} wins in {n}", scoreEven: "even 0.0", scoreAhead: "{color} +{value}", playedIn: "{move} in {secs} s",
  nodesPerSec: "{n} nodes/s",
  solved: "solved", sliceInfo: "analysing… {secs} s",
  // analysis: the best moves
  topTitle: "Best moves", readTop: "Read the best moves", readTopTitle: "Read the best moves (on the board: key B)",
  topCount: "Best moves in analysis", topSummary: "Best moves for {color}: {list}.", topSep: ", ",
  topNone: "No best moves yet.", topWin: "win in {n}", topLoss: "loss in {n}", markWin: "W", markLoss: "L",
  topMoveTitle: "Hover or focus: its line on the board; click: play it", topCursor: "best move {n}, {score}",
  // game review (review.js, review-view.js)
  rvTitle: "Game review", rvStart: "Review", rvResume: "Resume review", rvCancel: "Cancel",
  rvDeep: "Deep review (slower, finds more)", rvProgress: "Reviewing: move {n} of {total}",
  rvBudget: "Details: {nodes} nodes per position (a deep review: {deep}).",
  rvPartial: "Reviewed up to move {n} of {total}. Press Resume review to go on.",
  rvGraph: "Evaluation graph: black's winning chance after each move",
  rvGraphHelp: "Left and Right arrows choose a move, Up and Down jump between marked moves, Enter shows it on the board.",
  // a move in the player's words (review-words.js): You = the player's move, Opp = the
  // other side's, Color = in analysis (neither side the player's)
  rvMoveYou: "Move {n}, you played {move}: {cls}.", rvMoveOpp: "Move {n}, your opponent played {move}: {cls}.",
  rvMoveColor: "Move {n}, {color} played {move}: {cls}.",
  rvMissedYou: "Move {n}, you played {move}: you could have won with {better}.",
  rvMissedOpp: "Move {n}, your opponent played {move}: they could have won with {better}.",
  rvMissedColor: "Move {n}, {color} played {move}: {color} could have won with {better}.",
  rvBetterWas: "{move} was better.", rvBetterWasLine: "{move} was better (its line is drawn on the board: {line}).",
  rvWinLine: "The winning line is drawn on the board: {line}.",
  rvForcedYou: "After it you win by force.", rvForcedOpp: "After it your opponent wins by force.",
  rvForcedColor: "After it {color} wins by force.",
  rvNoBetter: "No move was better: every other move tried loses by force too.",
  rvChanceYou: "Your chance {before} → {after}.", rvChanceOpp: "Your opponent's chance {before} → {after}.",
  rvChanceColor: "{color}'s chance {before} → {after}.",
  rvNowYou: "Your chance after it: {pct}.", rvNowOpp: "Your opponent's chance after it: {pct}.",
  rvNowColor: "{color}'s chance after it: {pct}.",
  rvStartYou: "Start: your chance {pct}.", rvStartColor: "Start: {color}'s chance {pct}.",
  rvYou: "You", rvOpponent: "Your opponent",
  // how a flag was found (a forced win, or the evaluation) and the budget: the details line
  rvDetailsProven: "Details: proven (the engine found a forced win); {nodes} nodes per position.",
  rvDetailsJudged: "Details: judged by the evaluation (no forced win found); {nodes} nodes per position.",
  rvDetailsNodes: "Details: {nodes} nodes per position.",
  cls_best: "best move", cls_good: "good move", cls_inaccuracy: "inaccuracy", cls_mistake: "mistake",
  cls_blunder: "blunder", cls_missed_win: "missed win", cls_only_move: "only move", cls_opening: "opening move (not judged)",
  clsA_best: "the best move", clsA_good: "a good move", clsA_inaccuracy: "an inaccuracy", clsA_mistake: "a mistake",
  clsA_blunder: "a blunder", clsA_missed_win: "a missed win", clsA_only_move: "the only move that holds",
  clsA_opening: "an opening move (not judged)", rvOne: "1 {cls}",
  many_inaccuracy: "{n} inaccuracies", many_mistake: "{n} mistakes", many_blunder: "{n} blunders",
  many_missed_win: "{n} missed wins", many_only_move: "{n} only moves",
  rvSide: "{color}: {list}.", rvNothing: "nothing marked", rvSep: ", ",
  rvDone: "Review done.", rvCancelled: "Review cancelled.", rvStarted: "Reviewing the game.",
  rvFailed: "The review stopped: {err}. Press Review to try again; your game is unchanged.",
  rvRestart: "The engine stopped answering and was restarted; the review goes on once it is back.",
  rvReviewed: "reviewed",
  corruptReview: "The saved review could not be read and was discarded; the game is kept.",
  droppedReview: "Some reviews of finished games could not be read and were removed; the games are kept.",
  // the page itself, the board's spoken label, the engine's lines
  appName: "Gomoku", pageTitle: "Gomoku — five in a row", gameBoard: "Game board",
  boardLabel: "Gomoku board, {n} by {n}. Cursor on {cell}, {what}. Arrow keys move, Enter or Space places a stone.",
  cursorShort: "{cell}, {what}", blackStone: "black stone", whiteStone: "white stone", empty: "empty",
  emptyTop: "empty, {top}",
  engineReady: "Engine {version} ready in {secs} s (Pyodide {pyodide}).",
  workersParallel: "Parallel search: {ready} of {total} search workers ready.",
  workersOne: "Search in one worker (1 thread).",
  engineIllegal: "the engine proposed an illegal move {move}", fileTooLarge: "the file is too large",
  // the engine's start (load-progress.js)
  loadStarted: "Loading the engine.", loadReady: "Engine ready ({secs} s).", loadPercent: "{pct}%",
  loadBar: "Engine loading",
  // the coach (coach.js, coach-view.js)
  coachOpt: "Coach: mark the threats",
  coachOptTitle: "After every move, mark each side's fours, open threes and double threats on the board",
  coachLegend: "5: makes five · 4: makes an open four · 43, 44, 33: a double threat · rings: where to block.",
  coachWin: "{color} can make five at {points}.",
  coachFour: "{color} threatens to make five at {points}: block at {points}.",
  coachFourNoBlock: "{color} threatens to make five at {points}, a point black may not play.",
  coachFours: "{color} can make five at {points}: one move cannot block them all.",
  coachOwnThree: "{color} can make an open four at {points}.",
  coachThree: "{color} threatens to make an open four at {points}: block at {blocks}.",
  coachThreeNoBlock: "{color} threatens to make an open four at {points}, and every point that blocks it is forbidden for black.",
  coachOwnDouble: "{color} can make a {shape} at {points}.",
  coachDouble: "{color} threatens to make a {shape} at {points}: block at {blocks}.",
  coachDoubleNoBlock: "{color} threatens to make a {shape} at {points}, and every point that stops it is forbidden for black.",
  coachNone: "Coach: no threats on the board.",
  coachKept: "The coach stays on at this level and keeps marking the threats. To turn it off: Display, \"Coach: mark the threats\".",
  coachDoubleFour: "double four", coachFourThree: "four-three", coachDoubleThree: "double three",
  coachOr: " or ", coachSep: ", ",
  coachCursor: "coach: {color} makes {what} here", coachCursorBlock: "coach: blocks {color}'s threat",
  coachWhatFour: "five", coachWhatThree: "an open four", coachWhatDouble: "a {shape}",
  // --- puzzles: puzzles.html, puzzles-page.js ---
  pzTitle: "Gomoku puzzles", pzPageTitle: "Gomoku puzzles — win by fours, by threats, find the defence",
  pzTagline: "Positions from games played by the engine's levels, every answer proven by its solver",
  pzPlay: "Play a game", pzPuzzlesLink: "Puzzles",
  pzBoard: "Puzzle board", pzBoardLabel: "Puzzle board, {size} by {size}",
  pzPromptWin: "{color} to play and win.", pzPromptVcf: "{color} to play and win by fours ({n} moves).",
  pzPromptVct: "{color} to play and win by threes and fours.", pzPromptDefend: "{color}: find the defence.",
  pzBlack: "Black", pzWhite: "White",
  pzThemeLabel: "Theme", pzRuleLabel: "Rule", pzAll: "All",
  pzThemeVcf: "Win by fours", pzThemeVct: "Win by threes and fours", pzThemeDefend: "Find the defence",
  pzRuleFreestyle: "Freestyle", pzRuleStandard: "Standard", pzRuleRenju: "Renju",
  pzNext: "Next puzzle", pzDaily: "Daily puzzle", pzRetry: "Try again", pzShow: "Show solution",
  pzInfo: "Puzzle {id} · {theme} · {rule} · rated {rating}", pzDailyInfo: "Daily puzzle for {date}.",
  pzCorrect: "Correct! {move}.", pzSolved: "Solved! Your rating: {before} → {after}.",
  pzSolvedAgain: "Solved! (Already counted: your rating stays {rating}.)",
  pzWrong: "{move} is not it.", pzRefuting: "The engine is looking for the reply to your move…",
  pzAnswers: "{color} answers {move}.", pzAnswersLine: "{color} answers {move} (the line on the board: {line}).",
  pzNoEngine: "The engine is not ready; the reply to your move is not shown.",
  pzFailed: "Your rating: {before} → {after}.",
  pzSolutionMove: "Solution: {move}.", pzSolutionAlso: "Solution: {move} (also accepted: {others}).",
  pzSolutionLine: "The line on the board: {line}.",
  pzBlocks: "{move} blocks. Your move.", pzKeepGoing: "Keep going: win with fours.",
  pzLost: "{move} is not a four: the attack is over.",
  pzYourRating: "Your puzzle rating", pzStreak: "Streak", pzBestStreak: "Best streak", pzPlayed: "Puzzles rated",
  pzHistory: "History", pzNoHistory: "No puzzles rated yet.",
  pzHistSolved: "{id}: solved ({before} → {after})", pzHistFailed: "{id}: failed ({before} → {after})",
  pzDropped: "Your saved puzzle progress could not be read and was reset ({err}).",
  pzNone: "No puzzle matches these filters.", pzForbidden: "Black may not play {move} in renju ({shape}).",
  pzTaken: "{move} is taken.", pzNotYourTurn: "Wait for the reply.",
  pzHelp: "Click or tap a point. Keyboard: focus the board, arrows move, Enter or Space plays.",
  pzCount: "{n} puzzles", pzTrap: "Black may not block at {move} (forbidden): white's five follows.",
  pzMistakes: "Learn from your mistakes", pzMistakePrompt: "You played {move}. Find a better move for {color}.",
  pzMistakeInfo: "Your game, move {n}: {cls}. Exercise {i} of {total}.",
  pzNoGame: "No finished game yet: play a game on the game page, then come back.",
  pzReviewingLast: "Reviewing your last game to find your mistakes: move {n} of {total}…",
  pzNothingToLearn: "The review of your last game found no move of yours to improve. Well played!",
  pzReviewFailed: "The review of your last game stopped: {err}. Press Learn from your mistakes to try again.",
  pzMistakesCount: "Learn from your mistakes ({n})",
  pzChecking: "Checking {move} as the review would…", pzGood: "Good: {move} is as good as {better}. The line of {better}: {line}.",
  pzBetterFound: "{move}: the better move the review found. Its line: {line}.", pzPlayedIt: "{move} is the move you played.",
  pzNotAsGood: "{move} is not as good.", pzBetterWas: "Better: {better} (its line: {line}).", pzBetterMove: "Better: {better}.",
  pzMistakesDone: "That was your last one. Back to the puzzles.",
  // a puzzle move judged by the position it leaves
  pzJudging: "Checking {move}…", pzJudgingDeeper: "Looking deeper at {move}…",
  pzKeepGoingVct: "Keep going: win with threes and fours.",
  pzLonger: "{move} still wins, but takes longer than needed.",
  pzStillThreat: "{color} blocks at {move}. The threat is still there: defend again.",
  pzDefended: "{move} stops the attack.",
  pzAlsoWinsFours: "{move} also wins, but not by fours. This puzzle asks for a win by fours: try again.",
  pzAlsoWinsThreats: "{move} also wins, but not by threes and fours. This puzzle asks for a win by threats: try again.",
  pzLostAttack: "After {move} the win is gone: {color} answers {reply}.",
  pzLostDefence: "{move} does not stop the attack: {color} answers {reply}.",
  pzLostNoReply: "After {move} the win is gone.", pzThen: "Then: {line}.",
  pzUnclear: "The engine cannot tell within its limits whether {move} still wins. Try another move.",
  pzUnclearDefence: "The engine cannot tell within its limits whether {move} stops the attack. Try another move.",
  pzNoJudge: "The engine is not available to judge {move}: it is taken back.",
  // ---- records' errors, games kept, the finished-games list, browsing, touch ----
  ...RECORD_ERRORS_EN, // (record-errors.js: the records' errors, in English)
  ...PLAY_EN, // (i18n-play.js: two players on one device, the game clock)
  ...LEVELS_EN, // (i18n-levels.js: the levels' names and descriptions, by key)
  keptUnfinished: "Your game in progress is kept in the finished games (unfinished).",
  res_unfinished: "Unfinished",
  hist_won: "You won", hist_lost: "You lost", hist_draw: "Draw", hist_unfinished: "Unfinished",
  histMoves: "{n} moves", histOneMove: "1 move", histLevelName: "level {n} ({name})",
  st_browsing: "looking back: move {n} of {total}",
  browseLine: "The game is over; this is an earlier position. A move here would start a new line.",
  rvProgressLabel: "Review progress",
  touchConfirm: "Tap twice to place a stone (touch screens)",
  touchPreview: "{move}: tap it again to play.",
  ...OPENING_EN, // (opening-words.js: the opening rules' words)
};

const zh = {
  tagline: "在浏览器中与引擎对弈五子棋",
  newGame: "新游戏", setup: "新游戏设置…", undo: "悔棋", redo: "重做", hint: "提示",
  swap: "交换执子", analyse: "分析", stopAnalyse: "停止分析", moveNow: "立即落子",
  retry: "重启引擎", records: "棋谱…", close: "关闭", start: "开始", cancel: "取消",
  blackL: "黑棋", whiteL: "白棋", youPlay: "你执", engineLevel: "级别", black: "黑棋", white: "白棋",
  blackFirst: "黑棋（先手）", firstMove: "先手", rule: "规则",
  freestyle: "自由规则（五连或以上）", standard: "标准规则（恰好五连）", strength: "级别",
  renju: "连珠规则（黑棋须恰好五连，且有禁手）",
  renjuBlackFirst: "连珠规则由黑棋先行，黑棋不能下长连、四四、三三。",
  boardSize: "棋盘大小",
  levelOption: "{n} · {name}", levelOptionRated: "{n} · {name}（约 {rating}）",
  levelDetails: "{rating}{record}",
  levelRatedShort: "等级分约 {rating}。", levelUnrated: "等级分尚未测定。",
  levelRated: "详情：由引擎对局测得的 Elo {rating}（以贪心参考棋手为 {anchor}）。",
  levelUnlimitedRating: "没有单独的等级分：至少与专家相当，思考越久越强。",
  levelRecord: "此级别战绩：胜 {won}，负 {lost}，和 {drawn}。", levelNoGames: "此级别还没有对局。",
  levelWon: "你战胜了第 {n} 级（{name}）！要挑战第 {next} 级（{nextName}）吗？", playLevel: "挑战第 {n} 级：{name}", histLevel: "第 {n} 级",
  levelEasier: "在第 {n} 级连输三局了。想的话，可以先去第 {lower} 级（{lowerName}）玩玩。",
  howToPlay1: "横、竖或斜向先连成五子者获胜。",
  howToPlayFirst: "你执{color}先行：点击交叉点落子，引擎随后应对。",
  howToPlaySecond: "你执{color}：引擎先行，然后你点击交叉点应对。",
  navFirst: "第一手", navPrev: "上一手", navNext: "下一手", navLast: "最后一手",
  navPos: "第 {n} 手，共 {total} 手", moves: "着法", noMoves: "还没有落子。",
  movesScroll: "↓ 列表可以滚动：全部 {n} 手都在其中。",
  thinking: "引擎思考", score: "评分", depth: "深度", speed: "速度", source: "来源",
  pv: "最佳变化", showPv: "在棋盘上显示最佳变化", lastEngine: "引擎上一手",
  evalBar: "形势：{text}",
  display: "显示", numbers: "手数", coords: "坐标", sound: "落子音效",
  threads: "线程", threadsTitle: "搜索线程数（每个都运行自己的 Python）；1 = 单线程",
  theme: "主题", themeAuto: "跟随系统", themeLight: "浅色", themeDark: "深色", language: "语言",
  help: "点击或轻触交叉点落子。键盘：聚焦棋盘，方向键移动，回车或空格落子。Alt+方向键或在棋盘外按方向键浏览棋局。五子连珠获胜。",
  st_loading: "正在加载引擎…", st_restarting: "正在重启引擎…", st_yourTurnLoading: "轮到你了（引擎加载中…）",
  st_thinking: "思考中…", st_yourTurn: "轮到你了", st_analysing: "分析中", st_review: "复盘中",
  st_error: "引擎错误", st_draw: "和棋——棋盘已满", st_wins: "{color}获胜",
  youAre: "你执{color}。", youAreFirst: "你执{color}，先行。",
  youWin: "你赢了，下得好！", engineWins: "这局引擎获胜。", nobodyWins: "这局无人获胜。",
  pressNew: "按“新游戏”再来一局。", analysisLine: "分析模式：双方都由你落子，引擎只给出评价。",
  reviewLine: "此处轮到引擎：向后浏览，或按“交换执子”让引擎从这里走。",
  rule_freestyle: "自由规则", rule_standard: "标准规则", rule_renju: "连珠规则", setupLine: "对局：{setup}。", setupSep: "，",
  shape_overline: "长连", shape_double_four: "四四", shape_double_three: "三三",
  youPlayMove: "你下在 {move}。", enginePlays: "引擎下在 {move}。", playsMove: "{color}下在 {move}。",
  blackWins: "黑棋获胜。", whiteWins: "白棋获胜。", isDraw: "和棋。",
  gameOver: "本局已结束，请开始新游戏。", waitEngine: "请等待引擎。", taken: "{move} 已有棋子。",
  forbiddenMove: "黑棋不能下在 {move}：这是{shape}禁手（连珠规则）。",
  forbiddenCursor: "黑棋禁手：{shape}", forbiddenLegend: "叉号标出黑棋的禁手点。",
  engineToMoveHere: "此处轮到引擎。按“交换执子”可以执这一方。",
  newGameAnn: "新游戏。你执{color}。", takenBack: "已悔棋。", redone: "已重做。",
  atMove: "第 {n} 手：{move}。", atStart: "棋局开始。",
  hintIs: "提示：{move}。", hintBusy: "引擎正忙，请稍后再试。",
  swapped: "你现在执{color}。",
  restarted: "引擎已重启，请继续。",
  tooLong: "引擎用时过长，已重启。恢复后会立即落子。",
  cannotStart: "无法启动引擎：{err}。请刷新页面重试。",
  problem: "引擎出错：{err}。按“重启引擎”继续。",
  engineForbidden: "引擎选择的 {move} 是黑棋禁手（{shape}），未落子",
  sideNext: "新的执子从下一局开始（按“新游戏”）。",
  corruptGame: "保存的棋局无法读取，已丢弃。",
  corruptSettings: "保存的设置无法读取，已恢复默认。",
  corruptHistory: "已完成棋局列表无法读取，已清空。",
  droppedHistory: "部分已完成的棋局无法读取，已从列表中删除。",
  unknownLevel: "保存的棋局级别 {level} 不存在，现按第 {n} 级进行。",
  badSeed: "保存的棋局随机种子 {seed} 无法读取，改用 0。",
  corruptResults: "各级别的战绩无法读取，已清空。",
  droppedResults: "部分级别的战绩无法读取，已删除。",
  badLink: "无法打开链接：{err}。当前棋局未改变。",
  linkOpened: "已打开链接中的局面。",
  updated: "页面有新版本，刷新即可使用。",
  offlineReady: "已可离线使用。",
  recordsTitle: "棋谱", moveListLabel: "着法列表（如 h8 i9 j10）", loadMoves: "载入着法",
  copyMoves: "复制着法", shareLabel: "分享链接", copyLink: "复制链接", psqExport: "下载 .psq",
  psqImport: "打开 .psq 文件…", history: "已完成的棋局", noHistory: "还没有已完成的棋局。", load: "载入",
  copied: "已复制。", copyFailed: "请手动复制（选中后按 Ctrl+C）。",
  importBad: "无法载入：{err}。当前棋局未改变。", imported: "已载入 {n} 手。",
  res_black: "黑胜", res_white: "白胜", res_draw: "和棋",
  dialogTitle: "新游戏", whiteFirst: "白棋先行", blackFirstShort: "黑棋先行",
  src_book: "开局库", src_threat: "威胁搜索", src_search: "搜索", src_forced: "唯一应着",
  src_guard: "连珠检查（引擎原选点为禁手）",
  src_level: "本级别的选择", src_fallback: "备用着法（搜索出错）",
  winsIn: "{color} {n} 手内获胜", scoreEven: "均势 0.0", scoreAhead: "{color} +{value}", playedIn: "{move}，用时 {secs} 秒",
  nodesPerSec: "每秒 {n} 个节点",
  solved: "已解出", sliceInfo: "分析中… {secs} 秒",
  topTitle: "最佳着法", readTop: "朗读最佳着法", readTopTitle: "朗读最佳着法（在棋盘上：按 B 键）",
  topCount: "分析显示的着法数", topSummary: "{color}最佳着法：{list}。", topSep: "，",
  topNone: "还没有最佳着法。", topWin: "{n} 手内获胜", topLoss: "{n} 手内失败", markWin: "胜", markLoss: "负",
  topMoveTitle: "悬停或聚焦：在棋盘上显示其变化；点击：下这一手", topCursor: "第 {n} 佳着法，{score}",
  // game review
  rvTitle: "复盘", rvStart: "复盘", rvResume: "继续复盘", rvCancel: "取消",
  rvDeep: "深度复盘（更慢，找得更多）", rvProgress: "复盘中：第 {n} 手，共 {total} 手",
  rvBudget: "详情：每个局面 {nodes} 个节点（深度复盘：{deep}）。",
  rvPartial: "已复盘到第 {n} 手（共 {total} 手）。按“继续复盘”继续。",
  rvGraph: "形势图：每手之后黑棋的胜率",
  rvGraphHelp: "左右方向键选择一手，上下方向键在有标记的着法之间跳转，回车在棋盘上显示。",
  rvMoveYou: "第 {n} 手，你下 {move}：{cls}。", rvMoveOpp: "第 {n} 手，对手下 {move}：{cls}。",
  rvMoveColor: "第 {n} 手，{color}下 {move}：{cls}。",
  rvMissedYou: "第 {n} 手，你下 {move}：你本可以下 {better} 取胜。",
  rvMissedOpp: "第 {n} 手，对手下 {move}：对手本可以下 {better} 取胜。",
  rvMissedColor: "第 {n} 手，{color}下 {move}：{color}本可以下 {better} 取胜。",
  rvBetterWas: "{move} 更好。", rvBetterWasLine: "{move} 更好（棋盘上画出了它的变化：{line}）。",
  rvWinLine: "棋盘上画出了取胜的变化：{line}。",
  rvForcedYou: "此后你必胜。", rvForcedOpp: "此后对手必胜。",
  rvForcedColor: "此后{color}必胜。",
  rvNoBetter: "没有更好的着法：试过的其他着法也都会被对方强制取胜。",
  rvChanceYou: "你的胜率 {before} → {after}。", rvChanceOpp: "对手的胜率 {before} → {after}。",
  rvChanceColor: "{color}的胜率 {before} → {after}。",
  rvNowYou: "此后你的胜率：{pct}。", rvNowOpp: "此后对手的胜率：{pct}。",
  rvNowColor: "此后{color}的胜率：{pct}。",
  rvStartYou: "开局：你的胜率 {pct}。", rvStartColor: "开局：{color}的胜率 {pct}。",
  rvYou: "你", rvOpponent: "对手",
  rvDetailsProven: "详情：已证明（引擎找到了必胜手顺）；每个局面 {nodes} 个节点。",
  rvDetailsJudged: "详情：依据形势评估判断（未找到必胜手顺）；每个局面 {nodes} 个节点。",
  rvDetailsNodes: "详情：每个局面 {nodes} 个节点。",
  cls_best: "最佳着法", cls_good: "好棋", cls_inaccuracy: "缓着", cls_mistake: "错着",
  cls_blunder: "败着", cls_missed_win: "错失胜机", cls_only_move: "唯一着法", cls_opening: "开局着法（不评判）",
  clsA_best: "最佳着法", clsA_good: "好棋", clsA_inaccuracy: "缓着", clsA_mistake: "错着",
  clsA_blunder: "败着", clsA_missed_win: "错失胜机", clsA_only_move: "唯一能守住的着法",
  clsA_opening: "开局着法（不评判）", rvOne: "1 个{cls}",
  many_inaccuracy: "{n} 个缓着", many_mistake: "{n} 个错着", many_blunder: "{n} 个败着",
  many_missed_win: "{n} 次错失胜机", many_only_move: "{n} 个唯一着法",
  rvSide: "{color}：{list}。", rvNothing: "没有标记的着法", rvSep: "，",
  rvDone: "复盘完成。", rvCancelled: "已取消复盘。", rvStarted: "开始复盘。",
  rvFailed: "复盘中断：{err}。按“复盘”重试；棋局未改变。",
  rvRestart: "引擎没有响应，已重启；恢复后继续复盘。",
  rvReviewed: "已复盘",
  corruptReview: "保存的复盘无法读取，已丢弃；棋局保留。",
  droppedReview: "部分已完成棋局的复盘无法读取，已删除；棋局保留。",
  appName: "五子棋", pageTitle: "五子棋——五子连珠", gameBoard: "棋盘",
  boardLabel: "五子棋棋盘，{n} × {n}。光标在 {cell}，{what}。方向键移动，回车或空格落子。",
  cursorShort: "{cell}，{what}", blackStone: "黑子", whiteStone: "白子", empty: "空",
  emptyTop: "空，{top}",
  engineReady: "引擎 {version} 已就绪，用时 {secs} 秒（Pyodide {pyodide}）。",
  workersParallel: "并行搜索：{total} 个搜索线程中 {ready} 个已就绪。",
  workersOne: "单线程搜索（1 个线程）。",
  engineIllegal: "引擎给出了非法着法 {move}", fileTooLarge: "文件太大",
  // the engine's start (load-progress.js)
  loadStarted: "正在加载引擎。", loadReady: "引擎已就绪（{secs} 秒）。", loadPercent: "{pct}%",
  loadBar: "引擎加载进度",
  // the coach (coach.js, coach-view.js)
  coachOpt: "教练：标出威胁",
  coachOptTitle: "每步之后在棋盘上标出双方的四、活三和双重威胁",
  coachLegend: "5：可成五 · 4：可成活四 · 43、44、33：双重威胁 · 圆圈：防守点。",
  coachWin: "{color}可以在 {points} 成五。",
  coachFour: "{color}威胁在 {points} 成五：请在 {points} 防守。",
  coachFourNoBlock: "{color}威胁在 {points} 成五，而该点是黑棋的禁手点。",
  coachFours: "{color}可以在 {points} 成五：一步棋挡不住。",
  coachOwnThree: "{color}可以在 {points} 走成活四。",
  coachThree: "{color}威胁在 {points} 走成活四：请在 {blocks} 防守。",
  coachThreeNoBlock: "{color}威胁在 {points} 走成活四，而能挡住它的点都是黑棋的禁手点。",
  coachOwnDouble: "{color}可以在 {points} 走成{shape}。",
  coachDouble: "{color}威胁在 {points} 走成{shape}：请在 {blocks} 防守。",
  coachDoubleNoBlock: "{color}威胁在 {points} 走成{shape}，而能化解它的点都是黑棋的禁手点。",
  coachNone: "教练：棋盘上暂无威胁。",
  coachKept: "在这个级别教练仍然开启，继续标出威胁。要关闭：在“显示”中取消“教练：标出威胁”。",
  coachDoubleFour: "双四", coachFourThree: "四三", coachDoubleThree: "双三",
  coachOr: "或", coachSep: "、",
  coachCursor: "教练：{color}在此可成{what}", coachCursorBlock: "教练：可防守{color}的威胁",
  coachWhatFour: "五", coachWhatThree: "活四", coachWhatDouble: "{shape}",
  // --- puzzles: puzzles.html, puzzles-page.js ---
  pzTitle: "五子棋习题", pzPageTitle: "五子棋习题——冲四胜、冲四活三胜、找防守",
  pzTagline: "题目来自引擎各级别的对局，每个答案都由求解器证明",
  pzPlay: "下棋", pzPuzzlesLink: "习题",
  pzBoard: "习题棋盘", pzBoardLabel: "习题棋盘，{size} × {size}",
  pzPromptWin: "{color}先走，取胜。", pzPromptVcf: "{color}先走，连续冲四取胜（{n} 步）。",
  pzPromptVct: "{color}先走，用冲四和活三取胜。", pzPromptDefend: "{color}：找出防守。",
  pzBlack: "黑方", pzWhite: "白方",
  pzThemeLabel: "题型", pzRuleLabel: "规则", pzAll: "全部",
  pzThemeVcf: "连续冲四胜", pzThemeVct: "冲四活三胜", pzThemeDefend: "找防守",
  pzRuleFreestyle: "无禁手", pzRuleStandard: "标准", pzRuleRenju: "连珠",
  pzNext: "下一题", pzDaily: "每日一题", pzRetry: "再试一次", pzShow: "看答案",
  pzInfo: "习题 {id} · {theme} · {rule} · 难度 {rating}", pzDailyInfo: "{date} 的每日一题。",
  pzCorrect: "正确！{move}。", pzSolved: "解出！你的等级分：{before} → {after}。",
  pzSolvedAgain: "解出！（已计分，等级分仍为 {rating}。）",
  pzWrong: "{move} 不对。", pzRefuting: "引擎正在寻找对你这步棋的应对……",
  pzAnswers: "{color}应以 {move}。", pzAnswersLine: "{color}应以 {move}（棋盘上的变化：{line}）。",
  pzNoEngine: "引擎尚未就绪，无法显示对你这步棋的应对。",
  pzFailed: "你的等级分：{before} → {after}。",
  pzSolutionMove: "答案：{move}。", pzSolutionAlso: "答案：{move}（也可以：{others}）。",
  pzSolutionLine: "棋盘上的变化：{line}。",
  pzBlocks: "对方在 {move} 挡住。轮到你。", pzKeepGoing: "继续：用冲四取胜。",
  pzLost: "{move} 不是冲四，进攻结束。",
  pzYourRating: "你的习题等级分", pzStreak: "连对", pzBestStreak: "最佳连对", pzPlayed: "已计分题数",
  pzHistory: "记录", pzNoHistory: "还没有计分的习题。",
  pzHistSolved: "{id}：解出（{before} → {after}）", pzHistFailed: "{id}：失败（{before} → {after}）",
  pzDropped: "保存的习题进度无法读取，已重置（{err}）。",
  pzNone: "没有符合筛选条件的习题。", pzForbidden: "连珠规则下黑方不能下 {move}（{shape}）。",
  pzTaken: "{move} 已有棋子。", pzNotYourTurn: "请等待对方应对。",
  pzHelp: "点击交叉点落子。键盘：聚焦棋盘，方向键移动，回车或空格落子。",
  pzCount: "{n} 道题", pzTrap: "黑方不能在 {move} 挡（禁手），白方必成五。",
  pzMistakes: "从错误中学习", pzMistakePrompt: "你下了 {move}。为{color}找一步更好的棋。",
  pzMistakeInfo: "你的对局第 {n} 手：{cls}。第 {i} 题，共 {total} 题。",
  pzNoGame: "还没有下完的对局：先在对局页面下一局，再回来。",
  pzReviewingLast: "正在复盘你的上一局，寻找失误：第 {n} 手，共 {total} 手……",
  pzNothingToLearn: "复盘你的上一局，没有发现需要改进的着法。下得好！",
  pzReviewFailed: "你的上一局复盘中断：{err}。按“从错误中学习”重试。",
  pzMistakesCount: "从错误中学习（{n}）",
  pzChecking: "正在按复盘的方法检查 {move}……", pzGood: "好：{move} 与 {better} 一样好。{better} 的变化：{line}。",
  pzBetterFound: "{move}：复盘找到的更好着法。变化：{line}。", pzPlayedIt: "{move} 是你在对局中下的棋。",
  pzNotAsGood: "{move} 不够好。", pzBetterWas: "更好的着法：{better}（变化：{line}）。", pzBetterMove: "更好的着法：{better}。",
  pzMistakesDone: "这是最后一题。回到习题。",
  pzJudging: "正在检查 {move}……", pzJudgingDeeper: "正在更深入地检查 {move}……",
  pzKeepGoingVct: "继续：用冲四和活三取胜。",
  pzLonger: "{move} 仍然能赢，但比需要的步数多。",
  pzStillThreat: "{color}在 {move} 挡住。威胁还在：继续防守。",
  pzDefended: "{move} 挡住了进攻。",
  pzAlsoWinsFours: "{move} 也能赢，但不是靠连续冲四。本题要求连续冲四取胜：再试一次。",
  pzAlsoWinsThreats: "{move} 也能赢，但不是靠冲四和活三。本题要求用冲四和活三取胜：再试一次。",
  pzLostAttack: "{move} 之后胜机已失：{color}应 {reply}。",
  pzLostDefence: "{move} 挡不住进攻：{color}应 {reply}。",
  pzLostNoReply: "{move} 之后胜机已失。", pzThen: "之后：{line}。",
  pzUnclear: "引擎在其计算范围内无法判断 {move} 是否仍能取胜。请换一步试试。",
  pzUnclearDefence: "引擎在其计算范围内无法判断 {move} 能否挡住进攻。请换一步试试。",
  pzNoJudge: "引擎无法判断 {move}，这步棋已撤回。",
  // ---- records' errors, games kept, the finished-games list, browsing, touch ----
  rec_size: "棋盘大小必须在 {min}x{min} 到 {max}x{max} 之间",
  rec_sizeNot: "棋盘大小必须在 {min}x{min} 到 {max}x{max} 之间，而不是“{got}”",
  rec_rule: "未知规则“{rule}”", rec_first: "先手只能是黑棋（black）或白棋（white）",
  rec_renjuFirst: "连珠规则必须黑棋先行",
  rec_forbidden: "第 {n} 手（{move}）是黑棋禁手：{shape}",
  rec_noList: "没有着法列表", rec_tooLong: "着法列表太长",
  rec_tooMany: "着法比棋盘上的交叉点还多",
  rec_offBoard: "“{tok}”（第 {n} 手）不在 {size}x{size} 棋盘上",
  rec_notPoint: "“{tok}”（第 {n} 手）不是像 h8 这样的交叉点",
  rec_emptyList: "着法列表是空的", rec_emptyLink: "链接里没有着法",
  rec_badText: "它不是有效的文本：“{text}”中有损坏的 % 编码",
  rec_fileEmpty: "文件是空的", rec_fileLarge: "文件太大，不像棋谱",
  rec_psqHead: "不是 Piskvork 文件：第一行应当形如“Piskvorky 15x15, 11:11, 0”",
  rec_psqSize: "文件的棋盘是 {w}x{h}；只支持 {min}x{min} 到 {max}x{max} 的棋盘",
  rec_psqOff: "第 {line} 行：第 {n} 手（{x},{y}）在棋盘外（1..{size}）",
  rec_atLine: "第 {line} 行：{err}",
  rec_moveOff: "第 {n} 手不在 {size}x{size} 棋盘上",
  rec_afterWin: "第 {n} 手在棋局结束（第 {won} 手）之后",
  rec_taken: "第 {n} 手下在已有棋子的点上",
  ...PLAY_ZH, // (i18n-play.js: two players on one device, the game clock)
  ...LEVELS_ZH,
  keptUnfinished: "进行中的棋局已保存到已完成的棋局中（未下完）。",
  res_unfinished: "未下完",
  hist_won: "你赢了", hist_lost: "你输了", hist_draw: "和棋", hist_unfinished: "未下完",
  histMoves: "{n} 手", histOneMove: "1 手", histLevelName: "第 {n} 级（{name}）",
  st_browsing: "回看：第 {n} 手，共 {total} 手",
  browseLine: "棋局已结束，这是之前的局面。在这里落子会开始一条新的变化。",
  rvProgressLabel: "复盘进度",
  touchConfirm: "点两次落子（触屏）",
  touchPreview: "{move}：再点一次落子。",
  ...OPENING_ZH,
};

export const TABLES = { en, zh };
export const LANGS = { en: "English", zh: "简体中文" };

// The language is kept in one place, the page's settings (settings.lang: "en", "zh" or null
// for the browser's): the page says where to read it (readLanguageFrom) and t() reads it
// there on every call, so that this module keeps no copy of its own ("en" until told).
let languageSource = () => "en";

export function readLanguageFrom(source) {
  languageSource = source;
}

// The language to show: the saved choice if it is one of ours, else the first of the
// browser's preferred languages (navigator.languages, passed in) that is, else English.
export function pickLanguage(saved, preferred = []) {
  if (saved && TABLES[saved]) return saved;
  for (const p of preferred) {
    const base = String(p).toLowerCase().split("-")[0];
    if (TABLES[base]) return base;
  }
  return "en";
}

export function currentLanguage() {
  const code = languageSource();
  return TABLES[code] ? code : "en";
}

export function t(key, vars = {}) {
  return textIn(currentLanguage(), key, vars);
}

// The text of key in language code, its fields filled in; a field's value that is itself
// a message ({key, vars}, an error inside an error, a shape name; a list; a text in each
// language) is that message in the same language.
export function textIn(code, key, vars = {}) {
  const text = (TABLES[code] && TABLES[code][key]) ?? en[key] ?? key;
  const fill = (v) => (v !== null && typeof v === "object" ? textOf(v, code) : String(v));
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? fill(vars[k]) : "{" + k + "}"));
}

// ---- messages: what is kept to be shown, rendered in the language of the moment ---------

// The message of key with its fields (rendered by textOf).
export const msg = (key, vars = {}) => ({ key, vars });

// A text in each language ({en, zh}; English where one is missing), as a message.
export const inLanguages = (texts) => ({ texts });

// Messages joined by a separator (a message too: msg("rvSep")), as one message.
export const joined = (parts, sep) => ({ join: parts, sep });

// Sentences in a row: a space between two, none after a sentence that ends in a Chinese
// full stop (or mark) or before one that begins with a space ("" parts are dropped).
export function joinSentences(parts) {
  return parts.filter(Boolean).reduce((a, b) => (!a || /[。！？：]$|\s$/.test(a) || /^\s/.test(b) ? a + b : a + " " + b), "");
}

// The text of a message (see the top of this module) in language code (the page's by
// default); null, undefined and "" are "".
export function textOf(message, code = currentLanguage()) {
  if (message === null || message === undefined) return "";
  if (Array.isArray(message)) return joinSentences(message.map((m) => textOf(m, code)));
  if (typeof message === "object") {
    if (typeof message.key === "string") return textIn(code, message.key, message.vars || {});
    if (message.texts && typeof message.texts === "object") return String(message.texts[code] ?? message.texts.en ?? "");
    if (Array.isArray(message.join)) return message.join.map((m) => textOf(m, code)).join(textOf(message.sep, code));
  }
  return String(message);
}

// The player's text of an error: a textError's (record-errors.js) in language code (the
// page's by default), else its message.
export function errorText(err, code = currentLanguage()) {
  return textOf(errorMessage(err), code);
}

// An error as a message: a textError's key and fields (shown in the language of the
// moment), else its text as it is.
export function errorMessage(err) {
  if (err && typeof err.key === "string") return msg(err.key, err.vars || {});
  return String((err && err.message) || err);
}

// The current language on a document: its lang attribute and its static texts.
export function applyLanguage(doc) {
  doc.documentElement.lang = currentLanguage() === "zh" ? "zh-CN" : "en";
  applyStatic(doc);
}

export function applyStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}

// The words of two players on one device and of the game clock, in English and Simplified
// Chinese: part of i18n.js's tables (spread into them), kept here together.

export const PLAY_EN = {
  // the New game dialog
  ngOpponent: "Play against", ngEngine: "The engine", ngTwo: "Two players on this device",
  ngClock: "Clock", ngNoClock: "No clock", ngPreset: "{m} min + {s} s", ngCustom: "Custom", ngMinutes: "Minutes", ngIncrement: "Seconds per move",
  ngClockNote: "Each player's minutes, plus seconds added after each move (Fischer). The clock starts with the first stone.",
  ngClockBad: "Minutes 1 to 180 and seconds 0 to 60, whole numbers.",
  // status and the line under it
  st_toMove: "{color} to move", st_timeout: "{color} lost on time",
  twoLine: "Two players on this device: black and white take turns.",
  twoWins: "{color} wins — well played!", clockSetup: "clock {control}",
  howToPlayTwo: "Two players take turns on this device; {color} moves first.",
  // announcements
  timeoutAnn: "{color} lost on time.", clockAtEnd: "The clock is running: go to the last move to play.",
  // the clock
  clockLabel: "{color}'s clock: {time}", clockTitle: "Game clock", clockYou: "you", clockEngine: "engine",
  clockWaits: "The clock starts with the first stone.", clockStopped: "The clock is stopped while the engine loads.",
  // undo by agreement
  undoAsk: "Take back {color}'s move {move}?", undoAgree: "Both players should agree.",
  undoYes: "Take back", undoNo: "Keep playing",
  // the finished games
  histBlackWon: "Black won", histWhiteWon: "White won", histTimeout: "{color} lost on time", histTwo: "two players",
  // what is stored
  badClock: "The saved game's clock could not be read; the game goes on without a clock.",
};

export const PLAY_ZH = {
  ngOpponent: "对手", ngEngine: "引擎", ngTwo: "双人（同一设备）",
  ngClock: "计时", ngNoClock: "不计时", ngPreset: "{m} 分钟 + {s} 秒", ngCustom: "自定义", ngMinutes: "分钟", ngIncrement: "每步加秒",
  ngClockNote: "每方的分钟数，每走一步再加若干秒（费舍尔计时）。第一手落子后开始计时。",
  ngClockBad: "分钟为 1 到 180、秒为 0 到 60 的整数。",
  st_toMove: "轮到{color}", st_timeout: "{color}超时负",
  twoLine: "双人对弈：黑白双方在本设备上轮流落子。",
  twoWins: "{color}获胜，下得好！", clockSetup: "计时 {control}",
  howToPlayTwo: "两人在本设备上轮流落子，{color}先行。",
  timeoutAnn: "{color}超时判负。", clockAtEnd: "计时进行中：回到最后一手才能落子。",
  clockLabel: "{color}计时：{time}", clockTitle: "棋钟", clockYou: "你", clockEngine: "引擎",
  clockWaits: "第一手落子后开始计时。", clockStopped: "引擎加载时计时暂停。",
  undoAsk: "悔掉{color}的 {move} 这一步？", undoAgree: "需双方同意。",
  undoYes: "悔棋", undoNo: "继续下棋",
  histBlackWon: "黑棋胜", histWhiteWon: "白棋胜", histTimeout: "{color}超时负", histTwo: "双人",
  badClock: "保存的棋局计时无法读取，棋局继续，不再计时。",
  rec_clock: "时限应写成 5+3 这样（分钟+秒）",
};

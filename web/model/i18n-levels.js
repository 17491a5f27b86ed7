// The levels' names and one-line descriptions in English and Simplified Chinese, by the
// level's key (levels-data.js, generated from py/gomoku/engine/levels.py): part of
// i18n.js's tables (spread into them), kept here together. levels.js reads them.

export const LEVELS_EN = {
  level_starter: "Starter", levelAbout_starter: "Builds its own lines; often misses your open three, sometimes even your four.",
  level_novice: "Novice", levelAbout_novice: "Blocks most of your fours; rarely sees your open threes.",
  level_apprentice: "Apprentice", levelAbout_apprentice: "Always blocks your fours; misses some of your open threes.",
  level_newcomer: "Newcomer", levelAbout_newcomer: "Looks one move ahead; often misses what you are building.",
  level_beginner: "Beginner", levelAbout_beginner: "Makes its fives and blocks your fours, but little more.",
  level_learner: "Learner", levelAbout_learner: "Sees open threes and short attacks; easily surprised.",
  level_casual: "Casual", levelAbout_casual: "Defends your threats and attacks with fours.",
  level_club: "Club", levelAbout_club: "A steady club player: plans a few moves ahead.",
  level_strong: "Strong", levelAbout_strong: "Finds most threat sequences; punishes loose moves.",
  level_advanced: "Advanced", levelAbout_advanced: "The full engine on a small budget.",
  level_expert: "Expert", levelAbout_expert: "The full engine, 10 seconds a move.",
  level_unlimited: "Unlimited", levelAbout_unlimited: "The full engine, thinking until you press Move now.",
};

export const LEVELS_ZH = {
  level_starter: "起步", levelAbout_starter: "只顾连自己的子；常看不到你的活三，有时连你的四也看不到。",
  level_novice: "学步", levelAbout_novice: "多半会挡你的四，却很少看到你的活三。",
  level_apprentice: "学徒", levelAbout_apprentice: "总会挡你的四，但有时漏看你的活三。",
  level_newcomer: "新手", levelAbout_newcomer: "只看一步，常常看不到你的布局。",
  level_beginner: "入门", levelAbout_beginner: "会连五，会挡四，仅此而已。",
  level_learner: "初学", levelAbout_learner: "能看到活三和短攻，容易被偷袭。",
  level_casual: "休闲", levelAbout_casual: "会防守你的威胁，也会冲四进攻。",
  level_club: "棋友", levelAbout_club: "稳健的棋友，能算几步。",
  level_strong: "强手", levelAbout_strong: "能找到大多数连续攻击，抓住松懈的棋。",
  level_advanced: "高手", levelAbout_advanced: "完整引擎，较小的计算量。",
  level_expert: "专家", levelAbout_expert: "完整引擎，每步 10 秒。",
  level_unlimited: "无限", levelAbout_unlimited: "完整引擎，一直思考到你按“立即走棋”。",
};

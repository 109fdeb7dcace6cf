/**
 * Texts people type from a phone that a terminal and an agent's input box treat unevenly:
 * emoji with skin-tone modifiers and joiners, flags and keycaps, combining marks, CJK and
 * other wide characters, right-to-left scripts, zero-width characters, mixed scripts.
 * Every entry is one line with no leading `!` or `/` (those are modes, tested elsewhere).
 */
const TONES = ['\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}'];
const HANDS = ['👍', '👋', '✌', '👌', '🤞', '💪', '🙏'];

const skinTones = HANDS.flatMap((h) => TONES.map((t) => `${h}${t}`)); // 35
const zwj = [
  '👨‍👩‍👧‍👦', '👩‍❤️‍👨', '🧑‍💻', '👩🏽‍🚀', '👨🏿‍🍳', '🏳️‍🌈', '🏴‍☠️', '🐻‍❄️', '❤️‍🔥', '🧑🏻‍🤝‍🧑🏾',
  '👁️‍🗨️', '🧔‍♀️', '🏃‍♂️', '🤷🏼‍♀️', '👩‍👧',
]; // 15
const flagsAndKeycaps = ['🇯🇵', '🇫🇷', '🇧🇷', '🇮🇳', '🇺🇦', '🇿🇦', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '1️⃣', '#️⃣', '*️⃣', '🔟', '©️', '™️', '☺︎', '☺️']; // 15
const combining = [
  'e\u0301', 'a\u0308', 'n\u0303', 'c\u0327', 'o\u0302', 'u\u030A', 'i\u0300', 'y\u0301', 'A\u030A', 'E\u0300',
  'caf\u00e9', 'cafe\u0301', 'Ångström', 'Zoe\u0308', 'nai\u0308ve', 'Tiếng Việt', 'Đà Nẵng', 'phở bò', 'x\u0335y\u0336z', 'q\u0323\u0307',
  'ḍ', 'ǖ', 'ệ', 'ṩ', 'a\u0301\u0302',
]; // 25
const cjk = [
  '日本語', 'ひらがな', 'カタカナ', '漢字かな交じり文', '中文测试', '繁體中文', '한국어', '안녕하세요', '\u1100\u1161\u11A8', '粵語',
  '東京タワー', '你好，世界', '「引用」', '株式会社', 'ｶﾀｶﾅ', '一二三四五', '龍', '𠀋', '𪚲', '㊗',
  '중앙', '大阪市', 'テスト用の文章です', '简体字', '𩸽',
]; // 25
const rtl = [
  'שלום', 'עברית', 'مرحبا', 'العربية', 'سلام', 'اردو', 'שָׁלוֹם', 'مُحَمَّد', 'hello שלום world', 'abc مرحبا 123',
  'ישראל 2026', 'ت', '\u05D0\u05B8', 'فارسی', 'ܫܠܡܐ', 'ދިވެހި', 'price ₪42', 'سعر ١٢٣', 'א-ב-ג', 'مرحبا بالعالم',
]; // 20
const wide = ['ＡＢＣ', 'ｆｕｌｌｗｉｄｔｈ', '１２３', '！？', '全角スペース　あり', '🀄', '🈶', '㍿', '〄', 'ＷｉＤｅ']; // 10
const zeroWidth = [
  'zero\u200Bwidth', 'no\u200Cjoin', 'word\u2060joiner', 'bom\uFEFFinside', 'a\u200Db', 'x\u200By\u200Bz', 'ab\u200C\u200Cc', 'soft\u00ADhyphen', 'mid\u2060dle', 'zw\u200Bsp end',
]; // 10
const mixed = [
  'Hello 世界', 'Привет мир', 'Γειά σου', 'नमस्ते दुनिया', 'สวัสดีครับ', 'வணக்கம்', 'ሰላም', 'გამარჯობა', 'Բարեւ', 'ສະບາຍດີ',
  'ⓐⓑⓒ', '𝕏𝕐ℤ', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '∑ x² ≤ ∞', '½ ¾ ⅞', '→ ⇒ ↔', '★☆✓✗', '«guillemets»', '„Anführung“', '‘curly’ “quotes”',
  'Ελληνικά 123', 'ÆØÅ æøå', 'Łódź', 'İstanbul ığ', 'Straße', 'Ŝ ĉ ĝ', 'Ꙗ', 'ℌ𝔢𝔩𝔩𝔬', 'mañana', 'Ñandú',
  'emoji 🎉 party', 'rocket🚀launch', 'tea 🍵 time', 'ok 👌🏾 then', '日本 🗾 map', 'faces 😀😃😄', '🐍 python', 'λx.x', '⌘⌥⇧', '…ellipsis…',
  'tab-free	no', 'mixed 日本 עב 😀', 'a—b–c', '§ ¶ †', '¿Qué?', '¡Hola!', 'naïve café', '中英 mixed 文本', '✨sparkle✨', '100%',
  'x', '◌́', 'ᄀ', '\u{1F9D1}\u{200D}\u{1F393}', '🫠', '🪿', '🇪🇺', '⚽️', 'Ⅻ', '㋿',
]; // 60

/** At least 200 texts, each a single line. */
export const UNICODE_CORPUS: readonly string[] = [...skinTones, ...zwj, ...flagsAndKeycaps, ...combining, ...cjk, ...rtl, ...wide, ...zeroWidth, ...mixed].map((s) => s.replace(/\t/g, ' '));

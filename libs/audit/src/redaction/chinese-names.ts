/**
 * Common Chinese surnames (the single-character ones of 百家姓 most in use, and the compound ones).
 * A tool that opts in (`redactNames`) has every standalone run of Han characters that opens with one
 * of them and has one or two more characters masked as a personal name: `张三` → `张*`.
 */
const SINGLE =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池乐匡钮鞠';
const COMPOUND = [
  '欧阳',
  '司马',
  '上官',
  '诸葛',
  '东方',
  '皇甫',
  '尉迟',
  '公孙',
  '慕容',
  '长孙',
  '宇文',
  '司徒',
  '夏侯',
  '令狐',
  '端木',
  '西门',
  '南宫',
  '独孤',
  '轩辕',
  '呼延',
];

const SURNAMES = new Set(SINGLE);
const COMPOUNDS = new Set(COMPOUND);

/** CJK Unified Ideographs (the basic block: every name character in ordinary use). */
const isHan = (code: number) => code >= 0x4e00 && code <= 0x9fff;

/** The length of the surname a run of Han characters opens with (2, 1), or 0 when none. */
function surnameLength(text: string, start: number, length: number): number {
  if (length >= 3 && COMPOUNDS.has(text.slice(start, start + 2))) return 2;
  return SURNAMES.has(text[start]!) ? 1 : 0;
}

/** A name's masked form: the surname kept, each given-name character a `*`. */
function maskName(text: string, start: number, end: number, surname: number): string {
  return text.slice(start, start + surname) + '*'.repeat(end - start - surname);
}

/**
 * `text` with every standalone Chinese personal name masked: a maximal run of 2–4 Han characters
 * (3–4 with a compound surname) opening with a listed surname. Runs inside longer Han text are
 * left alone (`客户张三投诉` is a sentence, not a name): the check prefers a name missed in prose
 * to prose garbled. One pass, linear in the text.
 */
export function maskChineseNames(text: string): string {
  // Parts joined once at the end: a megabyte of names is a hundred thousand of them.
  let parts: string[] | undefined;
  let copied = 0;
  for (let i = 0; i < text.length;) {
    if (!isHan(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < text.length && isHan(text.charCodeAt(end))) end++;
    const length = end - i;
    const surname = length >= 2 && length <= 4 ? surnameLength(text, i, length) : 0;
    if (surname && length - surname >= 1 && length - surname <= 2) {
      (parts ??= []).push(text.slice(copied, i), maskName(text, i, end, surname));
      copied = end;
    }
    i = end;
  }
  if (!parts) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

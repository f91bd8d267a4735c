/**
 * The moment.js format tokens daily notes use (YYYY, YY, MMMM, MMM, MM, M, DD, D, Do, dddd, ddd, dd,
 * d, E, HH, H, mm, ss, ww, W, gggg, [literal]) — enough for Obsidian's daily-notes format without
 * bundling moment.
 */
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const TOKENS = /\[([^\]]*)\]|YYYY|YY|gggg|MMMM|MMM|MM|M|Do|DD|D|dddd|ddd|dd|d|E|HH|H|mm|ss|ww|w|WW|W/g;

export function formatDate(date: Date, format: string): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const y = date.getFullYear();
  const m = date.getMonth();
  const d = date.getDate();
  const wd = date.getDay();
  const week = isoWeek(date);
  return format.replace(TOKENS, (token: string, literal?: string) => {
    if (literal !== undefined) return literal;
    switch (token) {
      case "YYYY": return String(y);
      case "YY": return pad(y % 100);
      case "gggg": return String(week.year);
      case "MMMM": return MONTHS[m];
      case "MMM": return MONTHS[m].slice(0, 3);
      case "MM": return pad(m + 1);
      case "M": return String(m + 1);
      case "Do": return ordinal(d);
      case "DD": return pad(d);
      case "D": return String(d);
      case "dddd": return DAYS[wd];
      case "ddd": return DAYS[wd].slice(0, 3);
      case "dd": return DAYS[wd].slice(0, 2);
      case "d": return String(wd);
      case "E": return String(wd === 0 ? 7 : wd);
      case "HH": return pad(date.getHours());
      case "H": return String(date.getHours());
      case "mm": return pad(date.getMinutes());
      case "ss": return pad(date.getSeconds());
      case "ww": case "WW": return pad(week.week);
      default: return String(week.week);
    }
  });
}

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${s}`;
}

function isoWeek(date: Date): { year: number; week: number } {
  const d = new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
  return { year: d.getUTCFullYear(), week: Math.ceil(((d.getTime() - yearStart.getTime()) / 86400000 + 1) / 7) };
}

/** "today", "yesterday", "tomorrow", "+2", "-1" or "YYYY-MM-DD" → a local date; null when unreadable. */
export function resolveDay(input: string | undefined, now: Date): Date | null {
  const text = (input ?? "today").trim().toLowerCase();
  const base = new Date(now.getFullYear(), now.getMonth(), now.getDate(), 12);
  const shift = (days: number) => new Date(base.getFullYear(), base.getMonth(), base.getDate() + days, 12);
  if (text === "" || text === "today") return base;
  if (text === "yesterday") return shift(-1);
  if (text === "tomorrow") return shift(1);
  const rel = /^([+-]\d{1,4})\s*(d|days?)?$/.exec(text);
  if (rel) return shift(Number(rel[1]));
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (iso) {
    const d = new Date(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]), 12);
    return d.getMonth() === Number(iso[2]) - 1 ? d : null;
  }
  return null;
}

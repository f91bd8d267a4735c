/**
 * String formats compiled exactly, written as patterns in the subset the translator handles. Each
 * language is a subset of what ajv-formats (full mode) accepts: real calendar dates (leap years
 * included), times with seconds and a zone, and hyphenated UUIDs.
 */
/** Days of a month: 31, 30, 29 (leap February) and 28. */
const D31 = "(?:0[1-9]|[12]\\d|3[01])";
const D30 = "(?:0[1-9]|[12]\\d|30)";
const D29 = "(?:0[1-9]|[12]\\d)";
const D28 = "(?:0[1-9]|1\\d|2[0-8])";
/** Month and day, factored by the month's first digit so each character has one live parse. */
const monthDay = (feb: string) => `(?:0(?:[13578]-${D31}|[469]-${D30}|2-${feb})|1(?:[02]-${D31}|1-${D30}))`;
/**
 * A year then month-day, leap years exact: a year ccyy is leap when yy is a non-zero multiple of 4,
 * or yy is 00 and cc is a multiple of 4. Branching on the digits (not on whole alternatives) keeps
 * the grammar deterministic.
 */
const YY_REST = `(?:(?:0[48]|[2468][048]|[13579][26])-${monthDay(D29)}|(?:0[1235679]|[2468][1235679]|[13579][013457-9])-${monthDay(D28)})`;
const DATE = `(?:(?:[02468][048]|[13579][26])(?:00-${monthDay(D29)}|${YY_REST})|(?:[02468][1235679]|[13579][013457-9])(?:00-${monthDay(D28)}|${YY_REST}))`;
const TIME = "(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3])(?::?[0-5]\\d)?)";
const HEX = "[0-9a-fA-F]";

/** ajv-formats' (full mode) email, with its `i` flag spelled out in the classes. */
const EMAIL_LOCAL = "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]";
const LABEL = "[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?";
const EMAIL = `^${EMAIL_LOCAL}+(?:\\.${EMAIL_LOCAL}+)*@(?:${LABEL}\\.)+${LABEL}$`;
const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
/**
 * URIs: a subset of ajv-formats' RFC 3986 expression — scheme, an optional `//` authority with a
 * registered name and port (no user info or IP literal), path, query and fragment — which is what
 * URIs in tool arguments look like.
 */
const PCT = `%${HEX}{2}`;
const PCHAR = `(?:[a-zA-Z0-9\\-._~!$&'()*+,;=:@]|${PCT})`;
const REGNAME = `(?:[a-zA-Z0-9\\-._~!$&'()*+,;=]|${PCT})`;
const QCHAR = `(?:[a-zA-Z0-9\\-._~!$&'()*+,;=:@/?]|${PCT})`;
const HIER = `(?://${REGNAME}*(?::\\d*)?(?:/${PCHAR}*)*|/(?:${PCHAR}+(?:/${PCHAR}*)*)?|${PCHAR}+(?:/${PCHAR}*)*)`;
const URI = `^[a-zA-Z][a-zA-Z0-9+\\-.]*:${HIER}(?:\\?${QCHAR}*)?(?:#${QCHAR}*)?$`;
const URI_REFERENCE = `^(?:[a-zA-Z][a-zA-Z0-9+\\-.]*:)?${HIER}?(?:\\?${QCHAR}*)?(?:#${QCHAR}*)?$`;
/** ajv-formats' hostname without its look-ahead; the 253-character bound becomes a length cap (HOSTNAME_MAX). */
const HOSTNAME = "^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[-0-9a-zA-Z]{0,61}[0-9a-zA-Z])?)*\\.?$";

export const FORMAT_PATTERNS: Record<string, string> = {
  date: `^${DATE}$`,
  time: `^${TIME}$`,
  "date-time": `^${DATE}[Tt ]${TIME}$`,
  uuid: `^${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}$`,
  email: EMAIL,
  ipv4: `^(?:${OCTET}\\.){3}${OCTET}$`,
  uri: URI,
  "uri-reference": URI_REFERENCE,
  hostname: HOSTNAME,
  byte: "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
};

/** Formats whose pattern needs a length bound ajv checks separately (hostname's 253 characters). */
export const FORMAT_MAX_LENGTH: Record<string, number> = { hostname: 253 };

/** Formats ajv-formats applies to numbers, not strings (int32 and int64 are compiled as integer ranges). */
export const NUMBER_FORMATS = new Set(["int32", "int64", "float", "double"]);

/** Zod 4's date pattern body: the same language as DATE (and as ajv-formats' full date). */
const ZOD_DATE =
  "(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))";
const ZOD_TIME_Z = "T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z))";
const ZOD_TIME_OFFSET = "T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))";

/**
 * Patterns Zod 4 emits next to these formats, each mapped to the source the grammar compiles. Every
 * one's language lies within the format's in ajv-formats (the grammar tests check it), so enforcing
 * the pattern alone is exact for both keywords. Zod's date part is swapped for DATE, an equal
 * language written deterministically.
 */
export const PATTERNS_WITHIN_FORMAT: Record<string, Record<string, string>> = {
  date: { [`^${ZOD_DATE}$`]: `^${DATE}$` },
  "date-time": {
    [`^${ZOD_DATE}${ZOD_TIME_Z}$`]: `^${DATE}${ZOD_TIME_Z}$`,
    [`^${ZOD_DATE}${ZOD_TIME_OFFSET}$`]: `^${DATE}${ZOD_TIME_OFFSET}$`,
  },
  // A URI with an http(s) scheme: after "http:" or "https:" only the `//` authority form can follow.
  uri: { "^https?://": `^https?://${REGNAME}*(?::\\d*)?(?:/${PCHAR}*)*(?:\\?${QCHAR}*)?(?:#${QCHAR}*)?$` },
  uuid: {
    "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$":
      "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$",
  },
};

/** Formats ajv-formats validates; one we cannot compile exactly makes the tool fall back. */
export const AJV_FORMATS = new Set([
  "date",
  "time",
  "date-time",
  "iso-time",
  "iso-date-time",
  "duration",
  "uri",
  "uri-reference",
  "uri-template",
  "url",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "regex",
  "uuid",
  "json-pointer",
  "json-pointer-uri-fragment",
  "relative-json-pointer",
  "byte",
  "int32",
  "int64",
  "float",
  "double",
  "password",
  "binary",
]);

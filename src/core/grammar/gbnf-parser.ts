/** Parses GBNF text (llama.cpp's grammar format) into the grammar model. */
import { alt, rep, seq, type GbnfExpr, type GbnfGrammar } from "./gbnf-ast";

/** GBNF text that cannot be parsed; the message says where and why. */
export class GbnfParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GbnfParseError";
  }
}

const isWordChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9-]/.test(c);

class Parser {
  private pos = 0;
  /** Rule names referenced, with the offset of their first use (checked at the end). */
  private refs = new Map<string, number>();

  constructor(private readonly text: string) {}

  private fail(message: string, at = this.pos): never {
    const before = this.text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - before.lastIndexOf("\n");
    throw new GbnfParseError(`GBNF line ${line}, column ${column}: ${message}.`);
  }

  /** Skips spaces, tabs, comments, and newlines when `newlines` is true. */
  private space(newlines: boolean): void {
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === " " || c === "\t") this.pos++;
      else if (c === "#") {
        while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
      } else if (newlines && (c === "\n" || c === "\r")) this.pos++;
      else break;
    }
  }

  private name(): string {
    const start = this.pos;
    while (isWordChar(this.text[this.pos])) this.pos++;
    if (start === this.pos) this.fail("expected a rule name");
    return this.text.slice(start, this.pos);
  }

  parse(): GbnfGrammar {
    const rules = new Map<string, GbnfExpr>();
    this.space(true);
    while (this.pos < this.text.length) {
      const nameAt = this.pos;
      const name = this.name();
      this.space(false);
      if (!this.text.startsWith("::=", this.pos)) this.fail(`expected "::=" after the rule name "${name}"`);
      this.pos += 3;
      this.space(true);
      const body = this.alternates(false);
      if (rules.has(name)) this.fail(`the rule "${name}" is defined twice`, nameAt);
      rules.set(name, body);
      this.space(false);
      if (this.pos < this.text.length && this.text[this.pos] !== "\n" && this.text[this.pos] !== "\r") this.fail("expected the end of the rule");
      this.space(true);
    }
    for (const [name, at] of this.refs) if (!rules.has(name)) this.fail(`the rule "${name}" is used but never defined`, at);
    if (!rules.has("root")) throw new GbnfParseError('GBNF has no "root" rule; name the start rule root.');
    return { rules, root: "root" };
  }

  private alternates(nested: boolean): GbnfExpr {
    const options = [this.sequence(nested)];
    while (this.text[this.pos] === "|") {
      this.pos++;
      this.space(true);
      options.push(this.sequence(nested));
    }
    return alt(...options);
  }

  private sequence(nested: boolean): GbnfExpr {
    const items: GbnfExpr[] = [];
    for (;;) {
      const c = this.text[this.pos];
      let item: GbnfExpr;
      if (c === '"') item = this.literal();
      else if (c === "[") item = this.charClass();
      else if (c === ".") {
        this.pos++;
        item = { kind: "any" };
      } else if (c === "(") {
        this.pos++;
        this.space(true);
        item = this.alternates(true);
        if (this.text[this.pos] !== ")") this.fail('expected ")"');
        this.pos++;
        // Keep a group as one element even when it is a sequence, so a quantifier applies to all of it.
        if (item.kind === "seq") item = { kind: "alt", options: [item] };
      } else if (isWordChar(c)) {
        const at = this.pos;
        const name = this.name();
        if (!this.refs.has(name)) this.refs.set(name, at);
        item = { kind: "ref", name };
      } else break;
      this.space(nested);
      item = this.quantifier(item, nested);
      items.push(item);
    }
    return items.length === 1 ? items[0] : seq(...items);
  }

  private quantifier(item: GbnfExpr, nested: boolean): GbnfExpr {
    const c = this.text[this.pos];
    let out: GbnfExpr;
    if (c === "*") out = rep(item, 0, Infinity);
    else if (c === "+") out = rep(item, 1, Infinity);
    else if (c === "?") out = rep(item, 0, 1);
    else if (c === "{") {
      const m = /^\{\s*(\d+)\s*(,\s*(\d*)\s*)?\}/.exec(this.text.slice(this.pos, this.pos + 40));
      if (!m) this.fail("expected a repetition like {2}, {2,} or {2,5}");
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      if (max < min) this.fail("a repetition's maximum is below its minimum");
      this.pos += m[0].length - 1;
      out = { kind: "repeat", item, min, max };
    } else return item;
    this.pos++;
    this.space(nested);
    return out;
  }

  /** One character inside a literal or class, after escapes. */
  private char(): number {
    const c = this.text[this.pos];
    if (c === undefined) this.fail("unexpected end of grammar");
    if (c !== "\\") {
      const cp = this.text.codePointAt(this.pos)!;
      this.pos += cp > 0xffff ? 2 : 1;
      return cp;
    }
    const e = this.text[this.pos + 1];
    this.pos += 2;
    const hexOf = (n: number) => {
      const h = this.text.slice(this.pos, this.pos + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(h)) this.fail(`expected ${n} hex digits after \\${e}`);
      this.pos += n;
      return parseInt(h, 16);
    };
    switch (e) {
      case "x":
        return hexOf(2);
      case "u":
        return hexOf(4);
      case "U":
        return hexOf(8);
      case "t":
        return 9;
      case "r":
        return 13;
      case "n":
        return 10;
      case "\\":
      case '"':
      case "[":
      case "]":
      case "-":
      case "^":
        return e.charCodeAt(0);
      default:
        return this.fail(`unknown escape \\${e ?? ""}`, this.pos - 2);
    }
  }

  private literal(): GbnfExpr {
    this.pos++;
    let text = "";
    while (this.text[this.pos] !== '"') {
      if (this.pos >= this.text.length || this.text[this.pos] === "\n") this.fail("unterminated string literal");
      text += String.fromCodePoint(this.char());
    }
    this.pos++;
    return { kind: "literal", text };
  }

  private charClass(): GbnfExpr {
    this.pos++;
    let negated = false;
    if (this.text[this.pos] === "^") {
      negated = true;
      this.pos++;
    }
    const ranges: Array<[number, number]> = [];
    while (this.text[this.pos] !== "]") {
      if (this.pos >= this.text.length) this.fail("unterminated character class");
      const lo = this.char();
      if (this.text[this.pos] === "-" && this.text[this.pos + 1] !== "]") {
        this.pos++;
        const hi = this.char();
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    this.pos++;
    return { kind: "class", negated, ranges };
  }
}

/** Parses GBNF text into the grammar model; throws GbnfParseError with the line and column. */
export function parseGbnf(text: string): GbnfGrammar {
  return new Parser(text).parse();
}

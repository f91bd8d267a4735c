/**
 * The Bases expression language as the Bases syntax page defines it: literals (strings, numbers, booleans, null,
 * lists, objects, regular expressions), properties, `.field`, `[index]`, calls and methods, `! -` and the
 * arithmetic, comparison and boolean operators. Parsing returns a Result, never throws.
 */

export type Expr =
  | { k: "lit"; v: string | number | boolean | null | RegExp }
  | { k: "id"; name: string }
  | { k: "get"; obj: Expr; key: Expr }
  | { k: "call"; fn: Expr; args: Expr[] }
  | { k: "not" | "neg"; x: Expr }
  | { k: "bin"; op: string; l: Expr; r: Expr }
  | { k: "list"; items: Expr[] }
  | { k: "obj"; entries: [string, Expr][] };

export type Parsed = { ok: true; expr: Expr } | { ok: false; error: string };

interface Token {
  t: "num" | "str" | "id" | "op" | "re";
  v: string;
  at: number;
}

const OPS = ["==", "!=", ">=", "<=", "&&", "||", ">", "<", "+", "-", "*", "/", "%", "!", "(", ")", "[", "]", "{", "}", ".", ",", ":"];

function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const prev = out[out.length - 1];
    const afterValue = prev && (prev.t !== "op" || prev.v === ")" || prev.v === "]" || prev.v === "}");
    let m: RegExpExecArray | null;
    if ((m = /^\d+(?:\.\d+)?/.exec(src.slice(i)))) out.push({ t: "num", v: m[0], at: i });
    else if ((m = /^[\p{L}_$][\p{L}\p{N}_$]*/u.exec(src.slice(i)))) out.push({ t: "id", v: m[0], at: i });
    else if (c === '"' || c === "'") {
      let j = i + 1;
      let s = "";
      while (j < src.length && src[j] !== c) {
        if (src[j] === "\\" && j + 1 < src.length) {
          j++;
          s += ({ n: "\n", t: "\t", r: "\r" } as Record<string, string>)[src[j]] ?? src[j];
        } else s += src[j];
        j++;
      }
      if (j >= src.length) throw new SyntaxError(`the text starting at character ${i + 1} has no closing quote`);
      out.push({ t: "str", v: s, at: i });
      i = j + 1;
      continue;
    } else if (c === "/" && !afterValue && (m = /^\/((?:\\.|[^/\\\n])+)\/([dgimsuy]*)/.exec(src.slice(i)))) out.push({ t: "re", v: m[0], at: i });
    else {
      const op = OPS.find((o) => src.startsWith(o, i));
      if (!op) throw new SyntaxError(`"${c}" at character ${i + 1} is not part of the Bases syntax`);
      out.push({ t: "op", v: op, at: i });
      i += op.length;
      continue;
    }
    i += m[0].length;
  }
  return out;
}

/** Binary operators by precedence, loosest first. */
const LEVELS = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];

class Parser {
  private i = 0;
  constructor(private readonly toks: Token[]) {}

  private peek(v: string): boolean {
    const t = this.toks[this.i];
    return !!t && t.t === "op" && t.v === v;
  }

  private expect(v: string): void {
    if (!this.peek(v)) throw new SyntaxError(`expected "${v}" ${this.where()}`);
    this.i++;
  }

  private where(): string {
    const t = this.toks[this.i];
    return t ? `at character ${t.at + 1}` : "at the end";
  }

  parse(): Expr {
    const e = this.binary(0);
    if (this.i < this.toks.length) throw new SyntaxError(`unexpected "${this.toks[this.i].v}" ${this.where()}`);
    return e;
  }

  private binary(level: number): Expr {
    if (level === LEVELS.length) return this.unary();
    let l = this.binary(level + 1);
    while (LEVELS[level].some((op) => this.peek(op))) {
      const op = this.toks[this.i++].v;
      l = { k: "bin", op, l, r: this.binary(level + 1) };
    }
    return l;
  }

  private unary(): Expr {
    if (this.peek("!")) return this.i++, { k: "not", x: this.unary() };
    if (this.peek("-")) return this.i++, { k: "neg", x: this.unary() };
    return this.postfix(this.primary());
  }

  private list(close: string): Expr[] {
    const items: Expr[] = [];
    while (!this.peek(close)) {
      items.push(this.binary(0));
      if (!this.peek(close)) this.expect(",");
    }
    this.i++;
    return items;
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      if (this.peek(".")) {
        this.i++;
        const t = this.toks[this.i++];
        if (!t || t.t !== "id") throw new SyntaxError(`expected a name after "." ${this.where()}`);
        e = { k: "get", obj: e, key: { k: "lit", v: t.v } };
      } else if (this.peek("[")) {
        this.i++;
        e = { k: "get", obj: e, key: this.binary(0) };
        this.expect("]");
      } else if (this.peek("(")) {
        this.i++;
        e = { k: "call", fn: e, args: this.list(")") };
      } else return e;
    }
  }

  private primary(): Expr {
    const t = this.toks[this.i++];
    if (!t) throw new SyntaxError("the expression ends too early");
    if (t.t === "num") return { k: "lit", v: Number(t.v) };
    if (t.t === "str") return { k: "lit", v: t.v };
    if (t.t === "re") {
      const end = t.v.lastIndexOf("/");
      return { k: "lit", v: new RegExp(t.v.slice(1, end), t.v.slice(end + 1)) };
    }
    if (t.t === "id") {
      if (t.v === "true" || t.v === "false") return { k: "lit", v: t.v === "true" };
      return t.v === "null" ? { k: "lit", v: null } : { k: "id", name: t.v };
    }
    if (t.v === "(") {
      const e = this.binary(0);
      this.expect(")");
      return e;
    }
    if (t.v === "[") return { k: "list", items: this.list("]") };
    if (t.v === "{") return this.object();
    throw new SyntaxError(`unexpected "${t.v}" at character ${t.at + 1}`);
  }

  private object(): Expr {
    const entries: [string, Expr][] = [];
    while (!this.peek("}")) {
      const key = this.toks[this.i++];
      if (!key || (key.t !== "str" && key.t !== "id")) throw new SyntaxError(`expected a key ${this.where()}`);
      this.expect(":");
      entries.push([key.v, this.binary(0)]);
      if (!this.peek("}")) this.expect(",");
    }
    this.i++;
    return { k: "obj", entries };
  }
}

/** Parses one expression (a filter line, a formula, a summary formula). */
export function parseExpression(src: string): Parsed {
  try {
    if (src.trim() === "") return { ok: false, error: "The expression is empty." };
    return { ok: true, expr: new Parser(lex(src)).parse() };
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    return { ok: false, error: `"${src}" is not a valid Bases expression: ${err.message}.` };
  }
}

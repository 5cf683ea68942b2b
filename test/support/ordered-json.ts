// JSON text as a differential test needs it, both ways. Written: what JSON.stringify cannot write, a
// member named twice (RFC 8259 §4: names SHOULD be unique, so readers differ on which one counts) and a
// number as written (`3.0`, `3e0`). Read: every member in order, numbers as their text, which is how
// Go's encoding/json meets an object (each member assigned in turn, so the last one of a field wins) and
// a number (an int field refuses `3.0`).

/** An object as its members, in order, repeats kept. */
export class Obj {
  constructor(readonly entries: readonly (readonly [string, Json])[]) {}
}

/** A number as its text. */
export class Num {
  constructor(readonly text: string) {}
}

export type Json = string | number | boolean | null | Num | Obj | readonly Json[];

export const obj = (...entries: (readonly [string, Json])[]): Obj => new Obj(entries);

/** The JSON text of `value`, every member written as it is listed. */
export function write(value: Json): string {
  if (value instanceof Obj) return `{${value.entries.map(([key, member]) => `${JSON.stringify(key)}:${write(member)}`).join(",")}}`;
  if (value instanceof Num) return value.text;
  if (Array.isArray(value)) return `[${value.map(write).join(",")}]`;
  return JSON.stringify(value);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SPACE = /[ \t\n\r]*/y;

class Reader {
  at = 0;
  constructor(readonly text: string) {}

  space(): void {
    SPACE.lastIndex = this.at;
    SPACE.exec(this.text);
    this.at = SPACE.lastIndex;
  }

  expect(char: string): void {
    this.space();
    if (this.text[this.at] !== char) throw new SyntaxError(`expected ${char} at ${this.at}`);
    this.at++;
  }

  string(): string {
    this.space();
    const start = this.at;
    if (this.text[start] !== '"') throw new SyntaxError(`expected a string at ${start}`);
    let end = start + 1;
    while (this.text[end] !== '"') {
      if (end >= this.text.length) throw new SyntaxError("unterminated string");
      end += this.text[end] === "\\" ? 2 : 1;
    }
    this.at = end + 1;
    return JSON.parse(this.text.slice(start, this.at)) as string;
  }

  value(): Json {
    this.space();
    const char = this.text[this.at];
    if (char === "{") return this.object();
    if (char === "[") return this.array();
    if (char === '"') return this.string();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const number = NUMBER.exec(this.text);
    if (!number) throw new SyntaxError(`unexpected ${char} at ${this.at}`);
    this.at = NUMBER.lastIndex;
    return new Num(number[0]);
  }

  list<T>(close: string, item: () => T): T[] {
    const items: T[] = [];
    this.space();
    if (this.text[this.at] === close) {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(item());
      this.space();
      const char = this.text[this.at++];
      if (char === close) return items;
      if (char !== ",") throw new SyntaxError(`expected , or ${close} at ${this.at - 1}`);
    }
  }

  object(): Obj {
    this.expect("{");
    return new Obj(
      this.list("}", () => {
        const key = this.string();
        this.expect(":");
        return [key, this.value()] as const;
      }),
    );
  }

  array(): Json[] {
    this.expect("[");
    return this.list("]", () => this.value());
  }
}

/** `text` read with every member kept in order and every number as its text; throws SyntaxError as JSON.parse does. */
export function readOrdered(text: string): Json {
  const reader = new Reader(text);
  const value = reader.value();
  reader.space();
  if (reader.at !== text.length) throw new SyntaxError(`unexpected text at ${reader.at}`);
  return value;
}

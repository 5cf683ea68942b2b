// The attacks of the end-to-end one-reading suite (test/node/one-reading.test.ts), as raw request bytes: a push
// config that names a private service, spelled so that some reader other than the edge's would take it (DESIGN
// "One reading"), in every binding and version where the spelling exists. Bodies are written as text, not
// built with JSON.stringify: a key twice, escapes inside strings and `ſ` must reach the edge exactly so.
import { randomUUID } from "node:crypto";
import type { BoundedCall } from "./raw-bounded";

export type Carrier = "jsonrpc 1.0" | "jsonrpc 0.3" | "rest 1.0" | "rest 0.3";
const CARRIERS: readonly Carrier[] = ["jsonrpc 1.0", "jsonrpc 0.3", "rest 1.0", "rest 0.3"];

/** What an attack is answered with: refused (JSON-RPC `code`, REST 400; the message says `says`), or admitted without its config. */
type Verdict = { refused: -32602 | -32600; says: string } | "dropped";

export interface Attack {
  name: string;
  carrier: Carrier;
  call: BoundedCall;
  verdict: Verdict;
}

/** Where the attacks point: the private service (a loopback receiver), and a task of the origin's for creates. */
export interface Aim {
  /** `http://127.0.0.1:<port>/hook` */
  privateUrl: string;
  taskId: string;
}

const versionOf = (carrier: Carrier) => (carrier.endsWith("1.0") ? "1.0" : "0.3");
const headers = (carrier: Carrier) => ({ "content-type": "application/json", "A2A-Version": versionOf(carrier) });
const restPrefix = (carrier: Carrier) => (carrier === "rest 1.0" ? "/rest" : "/rest/v1");

/** A JSON-RPC request object's text, params given as text. */
export function rpcText(method: string, params: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(randomUUID())},"method":${JSON.stringify(method)},"params":${params}}`;
}

/** A user message with a fresh id in the carrier's shape (0.3 REST: its proto's `content`). */
function message(carrier: Carrier): string {
  const id = JSON.stringify(randomUUID());
  if (carrier === "jsonrpc 0.3") return `{"kind":"message","messageId":${id},"role":"user","parts":[{"kind":"text","text":"hi"}]}`;
  if (carrier === "rest 0.3") return `{"messageId":${id},"role":"ROLE_USER","content":[{"text":"hi"}]}`;
  return `{"messageId":${id},"role":"ROLE_USER","parts":[{"text":"hi"}]}`;
}

/** A send whose configuration's members are `configuration` (text), spelled exactly as given. */
export function sendCall(carrier: Carrier, configuration: string): BoundedCall {
  const body = `{"message":${message(carrier)},"configuration":{${configuration}}}`;
  if (carrier.startsWith("rest")) return { method: "POST", path: `${restPrefix(carrier)}/message:send`, headers: headers(carrier), body };
  const method = carrier === "jsonrpc 1.0" ? "SendMessage" : "message/send";
  return { method: "POST", path: "/", headers: headers(carrier), body: rpcText(method, body) };
}

/** A create of the config `{members}` for `taskId`, in the carrier's form (1.0: the params are the config). */
function createCall(carrier: Carrier, taskId: string, members: string): BoundedCall {
  const task = JSON.stringify(taskId);
  const path = `${restPrefix(carrier)}/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs`;
  if (carrier === "rest 1.0") return { method: "POST", path, headers: headers(carrier), body: `{${members}}` };
  if (carrier === "rest 0.3") {
    const name = JSON.stringify(`tasks/${taskId}/pushNotificationConfigs/c1`);
    return { method: "POST", path, headers: headers(carrier), body: `{"name":${name},"pushNotificationConfig":{${members}}}` };
  }
  const params = carrier === "jsonrpc 1.0" ? `{"taskId":${task},${members}}` : `{"taskId":${task},"pushNotificationConfig":{${members}}}`;
  const method = carrier === "jsonrpc 1.0" ? "CreateTaskPushNotificationConfig" : "tasks/pushNotificationConfig/set";
  return { method: "POST", path: "/", headers: headers(carrier), body: rpcText(method, params) };
}

/** The config's place in a send, by its JSON name (1.0, 0.3 JSON-RPC; 0.3 REST: its proto's `pushNotification`). */
const PLACE: Record<Carrier, string> = {
  "jsonrpc 1.0": "taskPushNotificationConfig",
  "jsonrpc 0.3": "pushNotificationConfig",
  "rest 1.0": "taskPushNotificationConfig",
  "rest 0.3": "pushNotification",
};
/** The same place by its other name: ProtoJSON's proto name (1.0, 0.3 REST), a2a-python's snake_case (0.3 JSON-RPC). */
const PROTO_PLACE: Record<Carrier, string> = {
  "jsonrpc 1.0": "task_push_notification_config",
  "jsonrpc 0.3": "push_notification_config",
  "rest 1.0": "task_push_notification_config",
  "rest 0.3": "push_notification",
};
/** The other generation's place, which this carrier's messages do not have. */
const FOREIGN_PLACE: Record<Carrier, string> = {
  "jsonrpc 1.0": "push_notification_config",
  "jsonrpc 0.3": "task_push_notification_config",
  "rest 1.0": "push_notification_config",
  "rest 0.3": "push_notification_config",
};
/** `s` written as `ſ` (U+017F), which Go's encoding/json folds to `s` (Unicode simple folding). */
const longS = (name: string) => name.replaceAll("s", "ſ");

const HTTPS = "must use https:";
const CHARACTERS = "must not contain a backslash, whitespace or control character";
const OTHER_CASE = "in another case";
const TWICE = "names the same key twice";
const PUBLIC_HOOK = "https://hooks.example.com/a2a";

/** Every attack of every carrier, aimed at `aim`. */
export function attacks(aim: Aim): Attack[] {
  const url = JSON.stringify(aim.privateUrl);
  const port = new URL(aim.privateUrl).port;
  const all: Attack[] = [];
  for (const carrier of CARRIERS) {
    const add = (name: string, call: BoundedCall, verdict: Verdict) => all.push({ name, carrier, call, verdict });
    const invalid = (says: string): Verdict => ({ refused: -32602, says });
    const send = (place: string) => sendCall(carrier, `${JSON.stringify(place)}:{"url":${url}}`);
    // The high-severity case: the proto name is the config to a ProtoJSON reader (the SDK origin's), so the guard must read it too.
    add(`send, ${PROTO_PLACE[carrier]}.url: the private service`, send(PROTO_PLACE[carrier]), invalid(HTTPS));
    add(`send, ${FOREIGN_PLACE[carrier]}: no field of this generation`, send(FOREIGN_PLACE[carrier]), "dropped");
    // Go's encoding/json matches member names ignoring case: `URL` and `taſk...` are its `url` and `task...`.
    add(`send, ${longS(PLACE[carrier])}`, send(longS(PLACE[carrier])), invalid(OTHER_CASE));
    // Both spellings of one field: a reader that takes the first and one that takes the last disagree.
    const both = `${JSON.stringify(PLACE[carrier])}:{"url":"${PUBLIC_HOOK}"},${JSON.stringify(PROTO_PLACE[carrier])}:{"url":${url}}`;
    add(`send, ${PLACE[carrier]} and ${PROTO_PLACE[carrier]}`, sendCall(carrier, both), invalid("twice"));
    const create = (name: string, members: string, verdict: Verdict) =>
      add(`create, ${name}`, createCall(carrier, aim.taskId, members), verdict);
    create("URL beside url", `"url":${JSON.stringify(PUBLIC_HOOK)},"URL":${url}`, invalid(OTHER_CASE));
    create("URL instead of url", `"URL":${url}`, invalid(OTHER_CASE));
    // URL readers that disagree on the host: WHATWG reads `\` as `/` (host hooks.example.com), curl as part of
    // the userinfo (host 127.0.0.1); WHATWG drops tabs and line breaks (host 127.0.0.1.hooks.example.com) where
    // a reader that stops at them has 127.0.0.1; WHATWG decodes `%31%32%37` in a host, others keep it.
    create("a backslash before @", `"url":"https://hooks.example.com\\\\@127.0.0.1:${port}/hook"`, invalid(CHARACTERS));
    create("a tab in the host", `"url":"https://127.0.0.1\\t.hooks.example.com/hook"`, invalid(CHARACTERS));
    create("CR LF in the host", `"url":"https://127.0.0.1\\r\\n.hooks.example.com/hook"`, invalid(CHARACTERS));
    create("a percent-encoded host", `"url":"https://%31%32%37.0.0.1:${port}/hook"`, invalid("must not percent-encode its host"));
    // The token becomes a header value (X-A2A-Notification-Token): NEL ends a line to some HTTP stacks.
    create(
      "a token with NEL (U+0085)",
      `"url":${JSON.stringify(PUBLIC_HOOK)},"token":"t\\u0085X-Injected: 1"`,
      invalid("token must not contain"),
    );
    // RFC 8259 §4: with a name twice, readers keep the first or the last.
    const twice = `"url":${JSON.stringify(PUBLIC_HOOK)},"url":${url}`;
    create("url twice (the last: the private service)", twice, { refused: -32600, says: TWICE });
    if (carrier.startsWith("jsonrpc")) {
      // The envelope read twice: the edge admits a get, a case-insensitive reader runs the send.
      const call = send(PLACE[carrier]);
      const body = String(call.body).replace(
        /"method":"([^"]+)"/,
        `"method":"${carrier === "jsonrpc 1.0" ? "GetTask" : "tasks/get"}","Method":"$1"`,
      );
      add("envelope: Method (a send) beside method (a get)", { ...call, body }, { refused: -32600, says: "is method in another case" });
    }
  }
  return all;
}

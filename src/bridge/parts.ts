// Parts, messages and artifacts between 0.3 (a2a.json @ v0.3.0: `kind`
// discriminators, lowercase roles, files under `file`) and 1.0 (ProtoJSON of
// proto lf.a2a.v1 @ v1.0.1: a Part is a oneof `text|raw|url|data` with
// `mediaType`/`filename` beside it, roles `ROLE_*`). Messages and artifacts
// share their field names; only roles and parts change.
import { isJsonObject, type JsonObject } from "../json";
import { enumMap, type Fields, listOf, reshape } from "./reshape";

/** proto `Role` in number order; ROLE_UNSPECIFIED has no 0.3 counterpart and is handed on as it is. */
export const V1_ROLES = ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"];
export const V03_ROLES = [undefined, "user", "agent"];

/**
 * The a2a-js, a2a-python and a2a-go compat layers' convention: 0.3 data must be
 * an object (DataPart.data), 1.0 data is any JSON value (proto Part.data is a
 * google.protobuf.Value), so other values travel to 0.3 as `{value: x}` with
 * this part-metadata flag (0.3 part metadata is free-form), and are unwrapped
 * on the way back. Following it keeps SDK peers on either side reading the
 * same value.
 */
const DATA_PART_COMPAT = "data_part_compat";

// ---- 0.3 -> 1.0 ----

const FILE_BYTES_V1: Fields = { bytes: "raw", name: "filename", mimeType: "mediaType" };
const FILE_URI_V1: Fields = { uri: "url", name: "filename", mimeType: "mediaType" };

/** 0.3 data part -> 1.0 `{data}`, unwrapping the compat form. */
function dataPartV1(part: JsonObject): JsonObject {
  const { metadata, data } = part;
  if (!isJsonObject(metadata) || metadata[DATA_PART_COMPAT] !== true || !isJsonObject(data) || !Object.hasOwn(data, "value")) {
    return reshape(part, { data: true, metadata: true });
  }
  const { [DATA_PART_COMPAT]: _flag, ...rest } = metadata;
  return Object.keys(rest).length > 0 ? { data: data.value, metadata: rest } : { data: data.value };
}

function partV1(part: unknown): unknown {
  if (!isJsonObject(part)) return part;
  switch (part.kind) {
    case "text":
      return reshape(part, { text: true, metadata: true });
    case "file": {
      // FileWithBytes | FileWithUri: 1.0's content is a oneof, so bytes (the content itself) win over a uri beside them.
      const file = isJsonObject(part.file) ? part.file : {};
      const content = reshape(file, Object.hasOwn(file, "bytes") ? FILE_BYTES_V1 : FILE_URI_V1);
      return reshape(part, { metadata: true }, content);
    }
    case "data":
      return dataPartV1(part);
    default:
      return part;
  }
}

const MESSAGE_V1: Fields = {
  messageId: true,
  contextId: true,
  taskId: true,
  role: enumMap(V03_ROLES, V1_ROLES, false),
  parts: listOf(partV1),
  metadata: true,
  extensions: true,
  referenceTaskIds: true,
};

/** 0.3 Message -> 1.0 Message (`kind` dropped: 1.0 tells types apart by the oneof member that holds them). */
export const messageV1 = (message: unknown): unknown => reshape(message, MESSAGE_V1);

const ARTIFACT_V1: Fields = { artifactId: true, name: true, description: true, parts: listOf(partV1), metadata: true, extensions: true };
export const artifactV1 = (artifact: unknown): unknown => reshape(artifact, ARTIFACT_V1);

// ---- 1.0 -> 0.3 ----

/**
 * 1.0 `mediaType` and `filename` are "available for all part types"; 0.3 has
 * them (as `mimeType`, `name`) on files only, so a text or data part loses them.
 */
const FILE_RAW_V03: Fields = { raw: "bytes", filename: "name", mediaType: "mimeType" };
const FILE_URL_V03: Fields = { url: "uri", filename: "name", mediaType: "mimeType" };

function dataPartV03(part: JsonObject): JsonObject {
  const data = part.data;
  if (isJsonObject(data)) return reshape(part, { data: true, metadata: true }, { kind: "data" });
  const metadata = isJsonObject(part.metadata) ? part.metadata : {};
  return { kind: "data", data: { value: data }, metadata: { ...metadata, [DATA_PART_COMPAT]: true } };
}

function partV03(part: unknown): unknown {
  if (!isJsonObject(part)) return part;
  const has = (member: string) => Object.hasOwn(part, member);
  if (has("text")) return reshape(part, { text: true, metadata: true }, { kind: "text" });
  if (has("raw") || has("url")) {
    const file = reshape(part, has("raw") ? FILE_RAW_V03 : FILE_URL_V03);
    return reshape(part, { metadata: true }, { kind: "file", file });
  }
  if (has("data")) return dataPartV03(part);
  return part;
}

const MESSAGE_V03: Fields = { ...MESSAGE_V1, role: enumMap(V1_ROLES, V03_ROLES, true), parts: listOf(partV03) };
export const messageV03 = (message: unknown): unknown => reshape(message, MESSAGE_V03, { kind: "message" });

const ARTIFACT_V03: Fields = { ...ARTIFACT_V1, parts: listOf(partV03) };
export const artifactV03 = (artifact: unknown): unknown => reshape(artifact, ARTIFACT_V03);

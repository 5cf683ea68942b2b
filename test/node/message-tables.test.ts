// src/messages/tables.json is derived from the vendored specifications, never kept by hand: the committed
// file is what `npm run messages` writes, and the generator reads what each specification says (a field's
// proto name and JSON name, `json_name` options, oneofs, enums by number, the 0.3 JSON Schema's unions).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonSchemaTable, messageTablesText, protoJsonName, protoTable, snakeName } from "../../scripts/message-tables";
import { ROOT } from "../support/processes";

const schema = (name: string) => readFileSync(join(ROOT, "test/schema", name), "utf8");

describe("src/messages/tables.json", () => {
  it("is what npm run messages writes from test/schema (run it if this fails)", () => {
    expect(readFileSync(join(ROOT, "src/messages/tables.json"), "utf8")).toBe(messageTablesText(schema));
  });

  it("1.0: every field by its JSON name and its proto name, oneofs, enums by number, every rpc", () => {
    const v1 = protoTable(schema("a2a-v1.0.1.proto"));
    expect(v1.protoJson).toBe(true);
    expect(v1.messages.SendMessageConfiguration).toContainEqual([
      "taskPushNotificationConfig",
      "task_push_notification_config",
      "M:TaskPushNotificationConfig",
      "",
    ]);
    expect(v1.messages.TaskPushNotificationConfig).toContainEqual(["url", "", "s", ""]);
    expect(v1.messages.Part).toContainEqual(["text", "", "s", "", "content"]);
    expect(v1.messages.StreamResponse).toContainEqual(["statusUpdate", "status_update", "M:TaskStatusUpdateEvent", "", "payload"]);
    expect(v1.enums.TaskState?.TASK_STATE_INPUT_REQUIRED).toBe(6);
    expect(Object.keys(v1.methods)).toHaveLength(11);
    // A card is read by card intake: any value to this reader.
    expect(v1.methods.GetExtendedAgentCard).toEqual({ request: "M:GetExtendedAgentCardRequest", response: "v" });
    expect(v1.methods.CreateTaskPushNotificationConfig?.body).toBe("*");
  });

  it("0.3 proto: json_name options win over the default JSON name, a body that is one field is named", () => {
    const v03 = protoTable(schema("a2a-v0.3.0.proto"));
    expect(v03.messages.SendMessageRequest).toContainEqual(["message", "request", "M:Message", ""]);
    expect(v03.messages.TaskStatus).toContainEqual(["message", "update", "M:Message", ""]);
    expect(v03.methods.CreateTaskPushNotificationConfig?.body).toBe("config");
    expect(v03.enums.TaskState?.TASK_STATE_CANCELLED).toBe(5);
  });

  it("0.3 JSON Schema: JSON names and a2a-python's snake_case names, unions merged, params and results of each method", () => {
    const v03 = jsonSchemaTable(schema("a2a-v0.3.0.json"));
    expect(v03.protoJson).toBe(false);
    expect(v03.methods["message/send"]).toEqual({ request: "M:MessageSendParams", response: "M:Task|Message" });
    expect(v03.methods["tasks/pushNotificationConfig/list"]?.responseShape).toBe("[]");
    expect(v03.messages.MessageSendConfiguration).toContainEqual([
      "pushNotificationConfig",
      "push_notification_config",
      "M:PushNotificationConfig",
      "",
    ]);
    expect(v03.messages["TextPart|FilePart|DataPart"]?.map(([name]) => name)).toEqual(["kind", "metadata", "text", "file", "data"]);
    expect(v03.enums["Message.role"]).toEqual({ agent: 0, user: 1 });
  });

  it("names: protoc's default JSON name and pydantic's snake_case", () => {
    expect(protoJsonName("task_push_notification_config")).toBe("taskPushNotificationConfig");
    expect(protoJsonName("oauth2_metadata_url")).toBe("oauth2MetadataUrl");
    expect(snakeName("pushNotificationConfigId")).toBe("push_notification_config_id");
    expect(snakeName("url")).toBe("url");
  });
});

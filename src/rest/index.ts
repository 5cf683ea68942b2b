// The HTTP+JSON (REST) binding at the edge (issue 13), pure: which operation a
// REST request names (rest-routes.ts), the JSON-RPC call it makes for a
// JSON-RPC origin (rest-request.ts), and the origin's answer as the REST answer
// (rest-response.ts); for an origin that speaks REST, the other way round
// (rest-origin.ts). Plain values in and out; the request pipeline keeps the
// HTTP. Each maps within one version (1.0 REST <-> 1.0 JSON-RPC, 0.3 <-> 0.3);
// a call for an origin of the other version goes through src/bridge/ as well.

export { jsonRpcToRest, type RestRequest, restEventToJsonRpc, restResponseToJsonRpc } from "./origin-mapping";
export { type RestCall, type RestInvalid, restToJsonRpc } from "./rest-request";
export { jsonRpcEventToRestEvent, jsonRpcToRestResponse, type RestResponse, restError } from "./rest-response";
export { matchRestRoute, type PathParams, type RestMatch, type RestRoute, type RestVersion } from "./rest-routes";

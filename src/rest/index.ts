// The HTTP+JSON (REST) binding at the edge, pure: which operation a REST
// request names (rest-routes.ts), the call's params it carries in the
// canonical form of its version (rest-request.ts), and an outcome as the REST
// answer (rest-response.ts); for an origin that speaks REST, the other way
// round (origin-mapping.ts). Plain values in and out; the codecs of
// src/bindings/ and src/origins/ keep the HTTP. Each maps within one version
// (1.0 <-> 1.0, 0.3 <-> 0.3); a call for an origin of the other version goes
// through src/bridge/ as well.

export { jsonRpcToRest, type RestRequest, restEventToJsonRpc, restResponseToJsonRpc } from "./origin-mapping";
export { type RestCall, type RestInvalid, restToJsonRpc } from "./rest-request";
export { jsonRpcEventToRestEvent, jsonRpcToRestResponse, type RestResponse, restError } from "./rest-response";
export { matchRestRoute, type PathParams, type RestMatch, type RestRoute, type RestVersion } from "./rest-routes";

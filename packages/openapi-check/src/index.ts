// @svc/openapi-check: test support that validates an OpenAPI document against the OpenAPI schema.
// Its own package (not @svc/testkit) so @svc/contracts can use it without a workspace cycle
// (testkit depends on contracts).
export { type OpenApiValidation, validateOpenApiDocument } from './validate';

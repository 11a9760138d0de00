/** Where the server publishes its OpenAPI 3.1 document (app/api/v1/openapi.json/route.ts). */
export const OPENAPI_URL = '/api/v1/openapi.json';

// Injection token of the parsed GatewayConfig (gateway.env.ts).
export const GATEWAY_CONFIG = Symbol('GatewayConfig');

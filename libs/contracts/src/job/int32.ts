// The largest integer the API's numbers carry (int32 in the schemas): credits and amounts stay within it.
export const INT32_MAX = 2_147_483_647;

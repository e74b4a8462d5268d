/** A 1×1 PNG, the smallest image a test uploads: as base64, and as bytes. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
export const PNG = Buffer.from(PNG_BASE64, 'base64');

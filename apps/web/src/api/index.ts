export { call, download, ApiError, openReloginDialog, closeReloginDialog, clearErrorMessages, REQUEST_TIMEOUT_MS, type CallOptions } from './client';
export { getToken, setToken, removeToken, TOKEN_COOKIE } from './session-token';
export { setFeedback } from './feedback';
export { useDownloading, useDownloadProgress, type DownloadProgress } from './download-overlay';

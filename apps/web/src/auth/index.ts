export { SessionProvider, useSession, usePermission, hasCode, displayName, restoreSession, type Session } from './session';
export { generateRoutes, mayOpen, type GeneratedRoutes, type PageRoute, type MenuRoute } from './routes';
export { isValidNewPassword, hashPassword } from './password';
export * from './storage';
export { openActingTab, actingInfo, leaveActing, type ActingInfo, type PendingTab } from './acting';

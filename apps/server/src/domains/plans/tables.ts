/** Tables of the plans domain. */
export {};

/** Tables of the scales domain. */
export {};

/** What other domains may call of files: storing files, their keys and signed addresses. */
export { filesByKeys, fileUrl, fileUrlSigner, newKey, noSuchFile, setFileUses, SIGNED_USE, storageOf, storeFile, usableFiles } from './files.js';

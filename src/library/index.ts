/** The workspace library as the API and the CLI see it (over the fingerprint index of src/fingerprints). */
export {
  checkDocument,
  createDocument,
  createDocuments,
  DEFAULT_PAGE_SIZE,
  type DocumentList,
  type DocumentObject,
  deleteDocument,
  documentObject,
  documentWorkspace,
  getDocument,
  listDocuments,
  MAX_DOCUMENT_WORDS,
  MAX_PAGE_SIZE,
  MIN_DOCUMENT_WORDS,
} from "./documents.ts";
export { readLibraryFile, UnreadableFileError } from "./files.ts";

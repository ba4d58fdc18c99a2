import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { countWords } from "../text/index.ts";

/**
 * The main text of a page or a file, and its title. HTML goes through Mozilla's Readability (Firefox Reader
 * View) over linkedom, so navigation, footers and sidebars do not enter the index; its text is then written
 * out block by block, because the DOM's textContent glues a heading to the paragraph after it.
 */

export interface ExtractedText {
  /** The page's own title, or null when it names none. */
  title: string | null;
  text: string;
}

/**
 * Below this many words Readability's pick is taken for a miss (a page of short paragraphs, a list) and the
 * whole body is used instead.
 */
const MIN_ARTICLE_WORDS = 25;

const SKIPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "head",
  "iframe",
  "object",
  "canvas",
  "select",
  "button",
]);
/** Page furniture dropped from the whole-body fallback. */
const FURNITURE = ["nav", "header", "footer", "aside", "form", "menu"];
const BLOCKS = new Set([
  "address",
  "article",
  "blockquote",
  "dd",
  "div",
  "dl",
  "dt",
  "figcaption",
  "figure",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "li",
  "main",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "td",
  "th",
  "tr",
  "ul",
  "body",
  "html",
]);

/** The DOM type Readability declares (this project compiles without the DOM library; linkedom provides one). */
type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/** Writes a DOM subtree as text: blocks become paragraphs, <br> a line break, runs of spaces one space. */
export function blockText(root: DomNode): string {
  const out: string[] = [];
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) {
      out.push((node.textContent ?? "").replace(/\s+/g, " "));
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const name = node.nodeName.toLowerCase();
    if (SKIPPED.has(name)) return;
    if (name === "br") {
      out.push("\n");
      return;
    }
    const block = BLOCKS.has(name);
    if (block) out.push("\n\n");
    for (let i = 0; i < node.childNodes.length; i++) {
      const child = node.childNodes[i];
      if (child) walk(child);
    }
    if (block) out.push("\n\n");
  };
  walk(root);
  return tidy(out.join(""));
}

/** Trims every line and keeps at most one empty line between paragraphs. */
function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const clean = (title: string | null | undefined): string | null => {
  const t = title?.replace(/\s+/g, " ").trim();
  return t ? t : null;
};

export function extractHtml(html: string): ExtractedText {
  const { document } = parseHTML(html);
  const pageTitle = clean(document.title) ?? clean(document.querySelector("h1")?.textContent);
  // Readability changes the document it reads: the fallback parses the page again.
  const article = new Readability<string>(document as unknown as ReadabilityDocument, {
    serializer: (node) => blockText(node as unknown as DomNode),
  }).parse();
  const text = article?.content ?? "";
  if (countWords(text) >= MIN_ARTICLE_WORDS) return { title: clean(article?.title) ?? pageTitle, text };
  const fresh = parseHTML(html).document;
  for (const tag of FURNITURE) for (const element of fresh.querySelectorAll(tag)) element.remove();
  const body = fresh.body ?? fresh.documentElement;
  return { title: pageTitle, text: body ? blockText(body as unknown as DomNode) : "" };
}

/**
 * Markdown as the words a reader sees: link targets, image addresses, emphasis marks, heading and list markers,
 * HTML tags and front matter go; the text of code stays (copied code is copied text too).
 */
export function extractMarkdown(markdown: string): ExtractedText {
  let text = markdown.replace(/\r\n?/g, "\n");
  let title: string | null = null;
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (front) {
    title = clean(/^title:\s*["']?(.*?)["']?\s*$/m.exec(front[1] ?? "")?.[1]);
    text = text.slice(front[0].length);
  }
  title ??= clean(/^#\s+(.+?)\s*#*\s*$/m.exec(text)?.[1]) ?? clean(/^(.+)\n=+\s*$/m.exec(text)?.[1]);
  text = text
    .replace(/^[ \t]*(```|~~~).*$/gm, "")
    .replace(/^[ \t]*\[[^\]]+\]:[ \t]*\S+.*$/gm, "")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/<[^>\n]+>/g, "")
    .replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, "")
    .replace(/[ \t]+#+[ \t]*$/gm, "")
    .replace(/^[ \t]*[=-]{3,}[ \t]*$/gm, "")
    .replace(/^[ \t]*>[ \t]?/gm, "")
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, "")
    .replace(/(\*\*|__|\*|_|~~|`)(?=\S)([^\n]*?\S)\1/g, "$2")
    .replace(/\|/g, " ");
  return { title, text: tidy(text) };
}

export function extractPlain(text: string): ExtractedText {
  return { title: null, text: tidy(text.replace(/\r\n?/g, "\n")) };
}

/** The main text of a fetched body by its media type. */
export function extractByMediaType(body: string, mediaType: string): ExtractedText {
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return extractHtml(body);
  if (mediaType === "text/markdown") return extractMarkdown(body);
  return extractPlain(body);
}

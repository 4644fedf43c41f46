/**
 * Facts about a TypeScript source file that the architecture test checks, read from its syntax tree (the
 * compiler's parser, no type check): how long each class and function is, and whether a line sits under a
 * comment carrying a given note (`tenant-by-hand:`), on the line itself or before any statement, declaration or
 * member that encloses it.
 */
import ts from 'typescript';

export interface Sized {
  kind: 'class' | 'function';
  /** The class's or function's name; a method is `Class.method`, an unnamed function `(anonymous)`. */
  name: string;
  /** 1-based line of its first token. */
  line: number;
  lines: number;
}

export function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function lineOf(source: ts.SourceFile, pos: number): number {
  return source.getLineAndCharacterOfPosition(pos).line + 1;
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  )
    return parent.name.getText(source);
  return '(anonymous)';
}

/** Every class and every function with a body (methods, arrows, accessors, constructors), with its length. */
export function sizes(source: ts.SourceFile): Sized[] {
  const out: Sized[] = [];
  const visit = (node: ts.Node, owner: string | undefined) => {
    let inner = owner;
    const span = () => lineOf(source, node.getEnd()) - lineOf(source, node.getStart(source)) + 1;
    if (ts.isClassLike(node)) {
      inner = nameOf(node, source);
      out.push({ kind: 'class', name: inner, line: lineOf(source, node.getStart(source)), lines: span() });
    } else if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const name = ts.isConstructorDeclaration(node) ? 'constructor' : nameOf(node, source);
      const full = owner && ts.isClassElement(node) ? `${owner}.${name}` : name;
      out.push({ kind: 'function', name: full, line: lineOf(source, node.getStart(source)), lines: span() });
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, undefined);
  return out;
}

/**
 * Whether the 1-based line `line` carries `note` in a comment: on the line itself, in the comment lines right above
 * it, or in the comments leading any
 * node that starts at or before the line and encloses it (its statement, the declaration holding that, a class
 * member, …), up to the file.
 */
export function noted(source: ts.SourceFile, line: number, note: string): boolean {
  const text = source.getFullText();
  const lineStart = source.getPositionOfLineAndCharacter(line - 1, 0);
  const lineEnd = text.indexOf('\n', lineStart);
  const own = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
  if (own.includes(note)) return true;
  // The comment lines right above it (a comment inside a chain of calls belongs to no node).
  const lines = text.split('\n');
  for (let i = line - 2; i >= 0 && /^\s*(?:\/\/|\/\*|\*)/.test(lines[i] ?? ''); i--) {
    if ((lines[i] ?? '').includes(note)) return true;
  }
  // The first token at or after the line's first non-blank character.
  const at = lineStart + (own.length - own.trimStart().length);
  let found = false;
  const visit = (node: ts.Node) => {
    if (found || node.getFullStart() > at || node.getEnd() <= at) return;
    for (const range of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []) {
      if (text.slice(range.pos, range.end).includes(note)) found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Comparisons of a property with the number 1 (`x.flag === 1`, `row['flag'] !== 1`, either side): how a 0/1 column
 * is read when a row, not a decoded record, travels. A count or a local compared with 1 is not one.
 */
export function flagComparisons(source: ts.SourceFile): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const operators = new Set([
    ts.SyntaxKind.EqualsEqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsEqualsToken,
    ts.SyntaxKind.EqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsToken,
  ]);
  const isOne = (node: ts.Node) => ts.isNumericLiteral(node) && Number(node.text) === 1;
  const isProperty = (node: ts.Node) => ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node);
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && operators.has(node.operatorToken.kind)) {
      const { left, right } = node;
      if ((isOne(right) && isProperty(left)) || (isOne(left) && isProperty(right))) {
        const property = (isOne(right) ? left : right) as ts.PropertyAccessExpression | ts.ElementAccessExpression;
        // `.length === 1` and `.size === 1` count things.
        const name = ts.isPropertyAccessExpression(property) ? property.name.text : '';
        if (name !== 'length' && name !== 'size')
          out.push({ line: lineOf(source, node.getStart(source)), text: node.getText(source) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

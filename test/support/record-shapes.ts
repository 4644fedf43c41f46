/**
 * What the architecture test checks of the records repositories hand out, read with the compiler's type checker:
 * every public method of a `…Repository` class, in a `repository*.ts` file of src/, takes and returns camelCase
 * domain records (docs/architecture.md, "One record shape"). A finding names the class, the method, where the
 * name sits (the result or a parameter) and the property that is not camelCase.
 */
import path from 'node:path';
import ts from 'typescript';

const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
/** Containers whose type arguments are what they hold. */
const CONTAINERS = new Set(['Promise', 'Array', 'ReadonlyArray', 'Map', 'ReadonlyMap', 'Set', 'ReadonlySet']);

export interface RecordShapeFinding {
  /** Path from src/, with forward slashes. */
  file: string;
  member: string;
  where: string;
  property: string;
}

const isRepositoryFile = (file: string) => /(^|\/)repository[^/]*\.ts$/.test(file) && !file.includes('/migrations/');

/** The file that declares a type (its alias's, or its symbol's first declaration). */
function fileOf(type: ts.Type): string {
  return (type.aliasSymbol ?? type.getSymbol())?.declarations?.[0]?.getSourceFile().fileName ?? '';
}

/**
 * Whether a type held by a record is a record too: a named `…Record` type of src/, or a table's row (a type named
 * `…Row` or `Stored…`, or Kysely's `Selectable<T>`). Anything else a record holds (a type literal, a wire type) is
 * a decoded JSON document, which keeps the names it is stored with, the API's wire names, and is not looked into.
 */
function heldRecord(type: ts.Type): boolean {
  const name = (type.aliasSymbol ?? type.getSymbol())?.getName() ?? '';
  if (name === 'Selectable') return true;
  return /Record$|Row$|^Stored[A-Z]/.test(name) && !fileOf(type).includes('/node_modules/');
}

function propertyNames(
  checker: ts.TypeChecker,
  documents: ReadonlySet<string>,
  type: ts.Type,
  nested: boolean,
  seen: Set<ts.Type>,
  out: string[],
  prefix: string,
): void {
  if (seen.has(type)) return;
  seen.add(type);
  if (type.isUnion()) {
    for (const part of type.types) propertyNames(checker, documents, part, nested, seen, out, prefix);
    return;
  }
  const symbolName = type.getSymbol()?.getName() ?? '';
  if (
    type.flags & ts.TypeFlags.Object &&
    (CONTAINERS.has(symbolName) || checker.isArrayType(type) || checker.isTupleType(type))
  ) {
    for (const arg of checker.getTypeArguments(type as ts.TypeReference))
      propertyNames(checker, documents, arg, nested, seen, out, prefix);
    return;
  }
  if (documents.has((type.aliasSymbol ?? type.getSymbol())?.getName() ?? '')) return;
  if (nested && !heldRecord(type)) return;
  // A branded primitive (`HrTenantId`: a string and a brand) is a value, not a record.
  if (
    type.isIntersection() &&
    type.types.some(
      (part) => part.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike),
    )
  )
    return;
  if (type.isIntersection()) {
    for (const part of type.types) propertyNames(checker, documents, part, false, seen, out, prefix);
    return;
  }
  if (!(type.flags & ts.TypeFlags.Object) || type.getCallSignatures().length > 0) return;
  const file = fileOf(type);
  // The API's wire shapes (TypeBox schemas) keep the wire's names.
  if (/(^|\/)schemas[^/]*\.ts$/.test(file) || file.includes('/@sinclair/typebox/')) return;
  // A library's type (a query builder, a stream, a Buffer) is not a record; a mapped type (Kysely's
  // `Selectable<T>`, `Omit<T, K>`) or a literal one is what it maps.
  const flags = (type as ts.ObjectType).objectFlags;
  if (file.includes('/node_modules/') && !(flags & (ts.ObjectFlags.Anonymous | ts.ObjectFlags.Mapped))) return;
  for (const property of checker.getPropertiesOfType(type)) {
    const name = property.getName();
    // A symbol-keyed member (a brand) has no name on the wire or in a record.
    if (name.startsWith('__@')) continue;
    if (!CAMEL.test(name)) out.push(`${prefix}${name}`);
    propertyNames(checker, documents, checker.getTypeOfSymbol(property), true, seen, out, `${prefix}${name}.`);
  }
}

/**
 * Every property name, not camelCase, that a public method of a repository class takes or returns. `documents`
 * names the types of src/ that are stored JSON documents in the API's wire names, handed out as they are.
 */
export function recordShapeFindings(checkout: string, documents: ReadonlySet<string>): RecordShapeFinding[] {
  const src = path.join(checkout, 'src') + path.sep;
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(checkout, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json: unreadable');
  const roots = config.fileNames.filter((f) => f.startsWith(src) && isRepositoryFile(f));
  const program = ts.createProgram(roots, { ...config.options, noEmit: true, incremental: false });
  const checker = program.getTypeChecker();
  const out: RecordShapeFinding[] = [];
  for (const file of roots) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    const r = path.relative(src, file).split(path.sep).join('/');
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name?.text.endsWith('Repository')) continue;
      for (const member of statement.members) {
        if (!(ts.isMethodDeclaration(member) || ts.isPropertyDeclaration(member))) continue;
        const modifiers = ts.getCombinedModifierFlags(member);
        if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
        if (!member.name || ts.isPrivateIdentifier(member.name)) continue;
        const name = `${statement.name.text}.${member.name.getText(source)}`;
        const type = checker.getTypeAtLocation(member);
        for (const signature of type.getCallSignatures()) {
          const found: string[] = [];
          propertyNames(checker, documents, signature.getReturnType(), false, new Set(), found, '');
          for (const property of found) out.push({ file: r, member: name, where: 'result', property });
          for (const parameter of signature.getParameters()) {
            const names: string[] = [];
            propertyNames(checker, documents, checker.getTypeOfSymbol(parameter), false, new Set(), names, '');
            for (const property of names)
              out.push({ file: r, member: name, where: `parameter ${parameter.getName()}`, property });
          }
        }
      }
    }
  }
  return out;
}

type Node = { readonly [keyword: string]: unknown };
/** Where a path leads in a schema: the schemas of the field, nothing, or a part no check can see. */
type Reached = readonly Node[] | 'missing' | 'open';

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Why a mask rule's input paths cannot be applied to a tool whose input JSON Schema is `schema`,
 * at save time (issue 26): a path that names no field of a closed object masks nothing (a typo
 * would silently leave the value in clear), and a masked value is a string, so a path reaching a
 * number, boolean, object, array, `enum` or `const` field would hand the tool an input its own
 * schema refuses. What the schema leaves open (`$ref`, open objects) is left to the call-time
 * check (`maskedInput`).
 */
export function maskPathProblems(paths: readonly string[], schema: Node): string[] {
  const problems: string[] = [];
  for (const path of paths) {
    const reached = reach(schema, path.split('.'));
    if (reached === 'missing') problems.push(`mask path "${path}" names no field of the tool's input`);
    else if (reached !== 'open' && reached.some(refusesStrings))
      problems.push(
        `mask path "${path}" names a field of type ${describe(reached)}; a masked value is a string, so the tool's own schema would refuse the masked input (mask string fields only)`,
      );
  }
  return problems;
}

function reach(node: Node, segments: readonly string[]): Reached {
  if (!segments.length) return [node];
  if ('$ref' in node) return 'open';
  const branches = [node.anyOf, node.oneOf, node.allOf].find(Array.isArray)?.filter(isNode);
  if (branches?.length) {
    const found = branches.map((b) => reach(b, segments));
    if (found.includes('open')) return 'open';
    const nodes = found.filter((f): f is readonly Node[] => f !== 'missing').flat();
    return nodes.length ? nodes : 'missing';
  }
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    if (isNode(node.items)) return reach(node.items, rest);
    if (isNode(node.additionalProperties)) return reach(node.additionalProperties, rest);
    return 'open';
  }
  const properties = isNode(node.properties) ? node.properties : undefined;
  const field = properties && Object.hasOwn(properties, head) ? properties[head] : undefined;
  if (isNode(field)) return reach(field, rest);
  if (isNode(node.additionalProperties)) return reach(node.additionalProperties, rest);
  if (node.additionalProperties === false) return 'missing';
  return 'open';
}

function refusesStrings(node: Node): boolean {
  if ('const' in node || Array.isArray(node.enum)) return true;
  const branches = [node.anyOf, node.oneOf].find(Array.isArray)?.filter(isNode);
  if (branches?.length) return branches.every(refusesStrings);
  const type = node.type;
  if (type === undefined) return false;
  return Array.isArray(type) ? !type.includes('string') : type !== 'string';
}

function describe(nodes: readonly Node[]): string {
  const n = nodes.find(refusesStrings)!;
  if ('const' in n) return 'const';
  if (Array.isArray(n.enum)) return 'enum';
  return Array.isArray(n.type) ? n.type.join('/') : typeof n.type === 'string' ? n.type : 'non-string';
}

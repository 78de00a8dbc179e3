// A results file may come from anyone (a publisher, a colleague, a CI artifact), and the names in it become file
// names, links and generated code. So every results file is checked against the JSON Schema when it is read, and the
// schema's patterns admit only plain names (no '/', no ':', no '<'). A file that fails is refused whole, with the
// first bad field named, before anything is written from it.
import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

let validate: ValidateFunction | undefined;

function compile(): ValidateFunction {
  // The schema ships beside src/ and dist/, so one path serves both.
  const schema = createRequire(import.meta.url)('../schema/results.v2.schema.json') as object;
  const ajv = new Ajv2020({ allErrors: false, strict: false, verbose: true });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

/** `/cells/3/framework` as `cells[3].framework`. */
const pathOf = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '') || 'the top level';

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

function describe(error: ErrorObject): string {
  const path = pathOf(error.instancePath);
  const schema = error.parentSchema as { description?: string } | undefined;
  switch (error.keyword) {
    case 'pattern':
      return `${path} is ${shown(error.data)}, which is not allowed there${schema?.description ? ` (${schema.description})` : ''}`;
    case 'propertyNames':
      return `${path} has a key that is not allowed there (${error.message})`;
    case 'enum':
      return `${path} is ${shown(error.data)}; expected one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    case 'const':
      return `${path} is ${shown(error.data)}; expected ${shown((error.params as { allowedValue: unknown }).allowedValue)}`;
    case 'required':
      return `${path} has no "${(error.params as { missingProperty: string }).missingProperty}"`;
    case 'additionalProperties':
      return `${path} has a field this suite does not know: "${(error.params as { additionalProperty: string }).additionalProperty}"`;
    case 'minItems':
      return `${path} is empty`;
    default:
      return `${path} ${error.message ?? 'is not valid'}${error.data === undefined ? '' : ` (it is ${shown(error.data)})`}`;
  }
}

/** What is wrong with a results file (schemaVersion 2), in one sentence about its first bad field; or undefined. */
export function schemaProblem(data: unknown): string | undefined {
  validate ??= compile();
  if (validate(data)) return undefined;
  return describe(validate.errors![0]!);
}

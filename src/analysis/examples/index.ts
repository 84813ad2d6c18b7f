/** Ready-made QA scorecards offered when an account creates its first template. */
import { readFileSync } from 'node:fs';
import { parseTemplate, type TemplateDefinition } from '../template.ts';

export interface ExampleTemplate {
  id: string;
  name: string;
  definition: TemplateDefinition;
}

// Read at load time rather than imported, so no JSON-module settings are needed in the build.
function load(file: string): TemplateDefinition {
  const parsed = parseTemplate(readFileSync(new URL(file, import.meta.url), 'utf8'));
  if (!parsed.ok) {
    const problems = parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    throw new Error(`example template ${file} is invalid: ${problems}`);
  }
  return parsed.template;
}

export const esAtencionCliente: ExampleTemplate = {
  id: 'es-atencion-cliente',
  name: 'Atención al cliente',
  definition: load('./es-atencion-cliente.json'),
};

export const enCustomerSupport: ExampleTemplate = {
  id: 'en-customer-support',
  name: 'Customer support',
  definition: load('./en-customer-support.json'),
};

export const exampleTemplates: readonly ExampleTemplate[] = [enCustomerSupport, esAtencionCliente];

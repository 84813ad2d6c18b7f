/**
 * Ready-made QA scorecards: the JSON files beside this module, imported with `template:import`.
 * The English and Spanish ones share every criterion and topic key (labels and phrases per
 * language), so reports and filters merge their rows, and they score fully offline: yes/no questions
 * for a language model are an add-on (`add-ons/llm-questions.json`) for accounts with `LLM_URL`.
 */
import { readFileSync } from 'node:fs';
import { type Criterion, parseTemplate, splitTemplateFile, type TemplateDefinition } from '../template.ts';

export interface ExampleTemplate {
  id: string;
  /** The file's own `name`, which `template:import` names the template after. */
  name: string;
  definition: TemplateDefinition;
}

// Read at load time rather than imported, so no JSON-module settings are needed in the build.
function load(file: string): { name: string; definition: TemplateDefinition } {
  const { name, definition } = splitTemplateFile(readFileSync(new URL(file, import.meta.url), 'utf8'));
  const parsed = parseTemplate(definition);
  if (!parsed.ok) {
    const problems = parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    throw new Error(`example template ${file} is invalid: ${problems}`);
  }
  if (!name) throw new Error(`example template ${file} has no name`);
  return { name, definition: parsed.template };
}

export const enCustomerSupport: ExampleTemplate = {
  id: 'en-customer-support',
  ...load('./en-customer-support.json'),
};

export const esAtencionCliente: ExampleTemplate = {
  id: 'es-atencion-cliente',
  ...load('./es-atencion-cliente.json'),
};

export const exampleTemplates: readonly ExampleTemplate[] = [enCustomerSupport, esAtencionCliente];

/** Where the optional language-model questions live, relative to the repository (for messages). */
export const LLM_ADD_ON_FILE = 'src/analysis/examples/add-ons/llm-questions.json';

/** The add-on's `llm` criteria per language, validated by appending them to the example of that language. */
export function llmQuestions(language: string): Criterion[] {
  const all = JSON.parse(readFileSync(new URL('./add-ons/llm-questions.json', import.meta.url), 'utf8')) as Record<
    string,
    unknown[]
  >;
  const base = exampleTemplates.find((t) => t.definition.language === language)?.definition;
  const extra = all[language];
  if (!base || !extra) return [];
  const parsed = parseTemplate({ ...base, criteria: [...base.criteria, ...extra] });
  if (!parsed.ok) throw new Error(`${LLM_ADD_ON_FILE} (${language}) is invalid: ${parsed.issues[0]?.message}`);
  return parsed.template.criteria.slice(base.criteria.length);
}

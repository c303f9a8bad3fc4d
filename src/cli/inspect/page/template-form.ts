import { Subscription } from 'rxjs';
import type { McpClient, ResourceTemplate } from 'rxmcp';
import { completionField } from './completion-field.js';
import { element } from './element.js';
import { expandTemplate, templateVariables } from './uri-template.js';

/** A resource template's form, as `templateForm` makes it. */
export interface TemplateForm {
  view: HTMLElement;
  /** The URI the template names with the form's values. */
  uri(): string;
  /** The fields' completions: unsubscribe when the form goes. */
  completing: Subscription;
}

/**
 * A form with one field per variable of `template`'s URI template, each
 * completed by the server (`ref/resource` with the template) when it
 * declared `completions`, the other fields' values as context. A field left
 * empty leaves its variable undefined.
 */
export function templateForm(mcp: McpClient, template: ResourceTemplate, completions: boolean): TemplateForm {
  const view = element('div');
  const completing = new Subscription();
  const inputs = new Map<string, HTMLInputElement>();
  const values = (except?: string): Map<string, string> =>
    new Map([...inputs].filter(([name, input]) => name !== except && input.value !== '').map(([name, input]) => [name, input.value]));
  for (const name of templateVariables(template.uriTemplate)) {
    const field = completionField(mcp, { type: 'ref/resource', uri: template.uriTemplate }, name, completions, () => Object.fromEntries(values(name)));
    field.input.id = `variable-${inputs.size}`;
    const label = element('label', name);
    label.htmlFor = field.input.id;
    inputs.set(name, field.input);
    if (field.completing) completing.add(field.completing);
    view.append(label, field.view);
  }
  if (inputs.size === 0) view.append(element('p', 'This template names no variables.'));
  return { view, uri: () => expandTemplate(template.uriTemplate, values()), completing };
}

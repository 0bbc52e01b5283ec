// What every builder gets: the model, the registry, and v4's shadow-CRUD switches (the extension service's
// `shadowCRUD(uid)` settings, as the plugins and the project's register() left them), asked as v4's builders ask.
import type { Attribute, ContentType, Model } from '../../model/types';
import { actionEnabled, fieldConfig, type ExtensionService } from '../extension/extension-service';
import type { TypeRegistry } from './registry';

export type CrudAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/**
 * Content types v4 gives no shadow CRUD: the admin's (disabled by the plugin) and content releases (registered
 * only with an Enterprise licence, which 4.26's Community Edition never has).
 */
function withoutShadowCrud(uid: string): boolean {
  return uid.startsWith('admin::') || uid.startsWith('plugin::content-releases.');
}

export class SchemaContext {
  constructor(
    readonly model: Model,
    readonly types: TypeRegistry,
    private readonly switches: Pick<ExtensionService, 'crud'>,
    /** config/api.js `responses.privateAttributes`: private on every model, as in v4 */
    private readonly globalPrivate: ReadonlySet<string> = new Set(),
    /** `config/plugins.js` graphql.config.shadowCRUD: false gives no type shadow CRUD */
    private readonly shadowCRUD = true,
  ) {}

  /**
   * Never in an output type or a filter: private attributes (v4's isPrivateAttribute, createdBy/updatedBy
   * included) and, stricter than v4's types, password attributes (REST never answers or filters them either).
   */
  isHidden(attr: Attribute): boolean {
    return attr.private || this.globalPrivate.has(attr.name) || (attr.kind === 'scalar' && attr.type === 'password');
  }

  /** the type or component has its types, and fields of other types may refer to it */
  isEnabled(uid: string): boolean {
    return this.shadowCRUD && this.model.get(uid) !== undefined && !withoutShadowCrud(uid) && this.switches.crud(uid).enabled;
  }

  /** the operation is generated: its group (queries or mutations) and the action are both on */
  hasOperation(uid: string, action: CrudAction): boolean {
    const crud = this.switches.crud(uid);
    const group = action === 'find' || action === 'findOne' ? crud.queries : crud.mutations;
    return group && actionEnabled(crud, action);
  }

  /** the attribute (or a component's `id`) is a field of the type */
  hasOutput(uid: string, attribute: string): boolean {
    return fieldConfig(this.switches.crud(uid), attribute).output;
  }

  /** the attribute (or a component's `id`) is a field of the `…Input` */
  hasInput(uid: string, attribute: string): boolean {
    return fieldConfig(this.switches.crud(uid), attribute).input;
  }

  /** the attribute (or a collection type's `id`) is a field of the `…FiltersInput` */
  hasFilters(uid: string, attribute: string): boolean {
    return fieldConfig(this.switches.crud(uid), attribute).filters;
  }

  /** the content types and components that get types, in v4's order (components first) */
  shadowCrudTypes(): ContentType[] {
    return [...this.model.components.values(), ...this.model.contentTypes.values()].filter((ct) => this.isEnabled(ct.uid));
  }
}

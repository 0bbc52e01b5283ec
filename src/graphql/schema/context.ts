// What every builder gets: the model, the registry, and v4's shadow-CRUD switches (the extension service's
// `shadowCRUD(uid)` settings, as the plugins set them before the schema is built).
import type { Attribute, ContentType, Model } from '../../model/types';
import type { TypeRegistry } from './registry';

export type CrudAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

export interface ShadowCrud {
  disabled?: boolean;
  queriesDisabled?: boolean;
  mutationsDisabled?: boolean;
  disabledActions?: Set<CrudAction>;
  /** attributes left out of the `…Input` type */
  inputDisabled?: Set<string>;
}

export class SchemaContext {
  private readonly crud = new Map<string, ShadowCrud>();

  constructor(
    readonly model: Model,
    readonly types: TypeRegistry,
    /** config/api.js `responses.privateAttributes`: private on every model, as in v4 */
    private readonly globalPrivate: ReadonlySet<string> = new Set(),
  ) {}

  /**
   * Never in an output type or a filter: private attributes (v4's isPrivateAttribute, createdBy/updatedBy
   * included) and, stricter than v4's types, password attributes (REST never answers or filters them either).
   */
  isHidden(attr: Attribute): boolean {
    return attr.private || this.globalPrivate.has(attr.name) || (attr.kind === 'scalar' && attr.type === 'password');
  }

  shadowCrud(uid: string): ShadowCrud {
    let s = this.crud.get(uid);
    if (!s) this.crud.set(uid, (s = {}));
    return s;
  }

  isEnabled(uid: string): boolean {
    return this.model.get(uid) !== undefined && !this.crud.get(uid)?.disabled;
  }

  isActionEnabled(uid: string, action: CrudAction): boolean {
    const s = this.crud.get(uid);
    if (!s) return true;
    const query = action === 'find' || action === 'findOne';
    if (query ? s.queriesDisabled : s.mutationsDisabled) return false;
    return !s.disabledActions?.has(action);
  }

  isInputEnabled(uid: string, attribute: string): boolean {
    return !this.crud.get(uid)?.inputDisabled?.has(attribute);
  }

  /** the content types and components that get types, in v4's order (components first) */
  shadowCrudTypes(): ContentType[] {
    return [...this.model.components.values(), ...this.model.contentTypes.values()].filter((ct) => this.isEnabled(ct.uid));
  }
}

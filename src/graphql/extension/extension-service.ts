// v4's GraphQL extension service (`strapi.plugin('graphql').service('extension')`): the shadow-CRUD switches
// project code sets in register() (`shadowCRUD(uid)`, read by the schema builder through `crud(uid)`) and the
// extensions it hands to `use()`, kept in order (`registered()`; applied by the other files of this folder).
// The switches behave as 4.26.2's: only ever turned off, a field's `disable()` turns off all four of its parts,
// `disableAction('*')` every action, and the getters answer exactly what v4's answer (queries turned off leave
// `isActionEnabled('find')` true; `disableFilters()` leaves the field `isEnabled()`).

/** one attribute's switches (`id` included: a component's id, a collection type's id filter) */
export interface FieldConfig {
  enabled: boolean;
  input: boolean;
  output: boolean;
  filters: boolean;
}

/** one uid's switches, as v4 stores them */
export interface ShadowCrudConfig {
  enabled: boolean;
  queries: boolean;
  mutations: boolean;
  /** `find`, `findOne`, `create`, `update`, `delete`, or `*` for all */
  disabledActions: string[];
  fields: Map<string, FieldConfig>;
}

export interface FieldSwitches {
  isEnabled(): boolean;
  /** the seed's name (v4 has none at field level) */
  isDisabled(): boolean;
  hasInputEnabled(): boolean;
  hasOutputEnabled(): boolean;
  /** v4's own spelling */
  hasFiltersEnabeld(): boolean;
  hasFiltersEnabled(): boolean;
  disable(): FieldSwitches;
  disableOutput(): FieldSwitches;
  disableInput(): FieldSwitches;
  disableFilters(): FieldSwitches;
}

export interface ShadowCrudSwitches {
  isEnabled(): boolean;
  isDisabled(): boolean;
  areQueriesEnabled(): boolean;
  areQueriesDisabled(): boolean;
  areMutationsEnabled(): boolean;
  areMutationsDisabled(): boolean;
  isActionEnabled(action: string): boolean;
  isActionDisabled(action: string): boolean;
  disable(): ShadowCrudSwitches;
  disableQueries(): ShadowCrudSwitches;
  disableMutations(): ShadowCrudSwitches;
  disableAction(action: string): ShadowCrudSwitches;
  disableActions(actions?: string[]): ShadowCrudSwitches;
  field(name: string): FieldSwitches;
}

export interface ExtensionService {
  /** the switches of a content type or component uid (`api::…`, `plugin::…`, `shared.seo`), created on first use */
  shadowCRUD(uid: string): ShadowCrudSwitches;
  /** an extension object, or a function `({ nexus, strapi, typeRegistry }) => object`, kept in call order */
  use(extension: unknown): ExtensionService;
  /** the `use()` arguments in call order */
  registered(): unknown[];
  /** the switches of a uid for the schema builder (the defaults when none were set; never creates an entry) */
  crud(uid: string): Readonly<ShadowCrudConfig>;
}

const ALL_ACTIONS = '*';

const defaultConfig = (): ShadowCrudConfig => ({ enabled: true, queries: true, mutations: true, disabledActions: [], fields: new Map() });
const defaultField = (): FieldConfig => ({ enabled: true, input: true, output: true, filters: true });
const DEFAULTS: Readonly<ShadowCrudConfig> = Object.freeze(defaultConfig());
const DEFAULT_FIELD: Readonly<FieldConfig> = Object.freeze(defaultField());

/** v4's action check: neither the action nor `*` was disabled (queries and mutations are separate switches) */
export function actionEnabled(config: Readonly<ShadowCrudConfig>, action: string): boolean {
  return config.disabledActions.every((a) => a !== action && a !== ALL_ACTIONS);
}

/** a field's switches, the defaults when none were set */
export function fieldConfig(config: Readonly<ShadowCrudConfig>, name: string): Readonly<FieldConfig> {
  return config.fields.get(name) ?? DEFAULT_FIELD;
}

function fieldSwitches(fields: Map<string, FieldConfig>, name: string): FieldSwitches {
  if (!fields.has(name)) fields.set(name, defaultField());
  const get = () => fields.get(name)!;
  const switches: FieldSwitches = {
    isEnabled: () => get().enabled,
    isDisabled: () => !get().enabled,
    hasInputEnabled: () => get().input,
    hasOutputEnabled: () => get().output,
    hasFiltersEnabeld: () => get().filters,
    hasFiltersEnabled: () => get().filters,
    disable() {
      fields.set(name, { enabled: false, input: false, output: false, filters: false });
      return switches;
    },
    disableOutput() {
      get().output = false;
      return switches;
    },
    disableInput() {
      get().input = false;
      return switches;
    },
    disableFilters() {
      get().filters = false;
      return switches;
    },
  };
  return switches;
}

export function createExtensionService(): ExtensionService {
  const configs = new Map<string, ShadowCrudConfig>();
  const extensions: unknown[] = [];

  const shadowCRUD = (uid: string): ShadowCrudSwitches => {
    if (!configs.has(uid)) configs.set(uid, defaultConfig());
    const get = () => configs.get(uid)!;
    const switches: ShadowCrudSwitches = {
      isEnabled: () => get().enabled,
      isDisabled: () => !get().enabled,
      areQueriesEnabled: () => get().queries,
      areQueriesDisabled: () => !get().queries,
      areMutationsEnabled: () => get().mutations,
      areMutationsDisabled: () => !get().mutations,
      isActionEnabled: (action) => actionEnabled(get(), action),
      isActionDisabled: (action) => !actionEnabled(get(), action),
      disable() {
        get().enabled = false;
        return switches;
      },
      disableQueries() {
        get().queries = false;
        return switches;
      },
      disableMutations() {
        get().mutations = false;
        return switches;
      },
      disableAction(action) {
        const { disabledActions } = get();
        if (!disabledActions.includes(action)) disabledActions.push(action);
        return switches;
      },
      disableActions(actions = []) {
        actions.forEach((action) => switches.disableAction(action)); // not an array: a TypeError, as in v4
        return switches;
      },
      field: (name) => fieldSwitches(get().fields, name),
    };
    return switches;
  };

  const service: ExtensionService = {
    shadowCRUD,
    use(extension) {
      extensions.push(extension);
      return service;
    },
    registered: () => [...extensions],
    crud: (uid) => configs.get(uid) ?? DEFAULTS,
  };
  return service;
}

// `strapi.eventHub`: v4's event hub (on/off/once/emit, subscribe/unsubscribe for every event). The
// entity service and upload service emit `entry.*` and `media.*` on it after their write committed;
// webhooks are one of its consumers. Listener errors are logged, never passed to the write.
type Listener = (...args: unknown[]) => unknown;
type Subscriber = (event: string, ...args: unknown[]) => unknown;

export class EventHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly subscribers = new Set<Subscriber>();

  constructor(private readonly onError: (err: unknown, event: string) => void) {}

  /** true when `emit(event)` reaches some listener or subscriber (the cheap check on the write path) */
  has(event: string): boolean {
    return this.subscribers.size > 0 || (this.listeners.get(event)?.size ?? 0) > 0;
  }

  async emit(event: string, ...args: unknown[]): Promise<void> {
    for (const s of [...this.subscribers]) await this.safely(event, () => s(event, ...args));
    for (const l of [...(this.listeners.get(event) ?? [])]) await this.safely(event, () => l(...args));
  }

  on(event: string, listener: Listener): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => this.off(event, listener);
  }

  off(event: string, listener: Listener): void {
    this.listeners.get(event)?.delete(listener);
  }

  once(event: string, listener: Listener): () => void {
    const wrapped: Listener = (...args) => {
      this.off(event, wrapped);
      return listener(...args);
    };
    return this.on(event, wrapped);
  }

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.unsubscribe(subscriber);
  }

  unsubscribe(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
  }

  addListener(event: string, listener: Listener) {
    return this.on(event, listener);
  }

  removeListener(event: string, listener: Listener): void {
    this.off(event, listener);
  }

  removeAllListeners(): void {
    this.listeners.clear();
    this.subscribers.clear();
  }

  destroy(): void {
    this.removeAllListeners();
  }

  private async safely(event: string, fn: () => unknown): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.onError(err, event);
    }
  }
}

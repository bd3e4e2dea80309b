/** The product's public address without a trailing slash: PUBLIC_URL, else this server's own (docs/delivery.md). */
export function publicBaseUrl(config: { publicUrl?: string | undefined; host: string; port: number }): string {
  return (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/$/, '');
}

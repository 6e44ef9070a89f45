/** One language's error texts, built from the contracts' catalogue by vite.config.ts (errorTexts). */
declare module "virtual:error-texts/*" {
  const texts: Record<string, string>;
  export default texts;
}

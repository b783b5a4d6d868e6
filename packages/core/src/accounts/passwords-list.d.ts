// The package ships this file without types (it has no exports map, so the path is importable).
declare module "@zxcvbn-ts/language-common/dist/passwords.json.mjs" {
  const passwords: string[];
  export default passwords;
}

// Package character owns an account's character (docs/design.md §9 "Character"; spec «アカウントは
// キャラクターを持つ», «キャラクターの本文はアカウントの窓で直す», «Codex の
// キャラ選択（#281）»): the output style its CLI speaks in. A Claude Code seat
// gets the name as outputStyle in --settings (Claude picks the style whose
// frontmatter name: it is); a Codex seat gets it in its process environment
// as LI_PLUS_OUTPUT_STYLE, which Li+'s SessionStart hook reads (hook mode,
// #281). The body lives in <working dir>/<.claude|.codex>/output-styles/<name>.md.
// A Codex project without Li+'s style files selects inline instead (#276,
// inline.go): the character is a "# character_<name>" block of the user's
// own developer_instructions (SelectInline), which an app-server seat
// sends with the other characters' blocks removed.
//
// It also owns the checks of a seat's working directory (CheckWorkDir,
// CreateWorkDir), the styles a CLI would find (ListStyles), and the launch
// warnings a character earns (Warnings, PreviewWarnings). Every read and
// write of a body file goes through an os.Root on the working directory
// (file.go). It runs no goroutine and holds no lock.
package character

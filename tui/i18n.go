package tui

import (
	"fmt"
	"strings"
)

// Lang is a UI language of the catalog: LangEnglish or LangJapanese.
type Lang string

// UI languages (docs/design.md §10: UI text lives in one catalog).
const (
	LangEnglish  Lang = "en"
	LangJapanese Lang = "ja"
)

// DetectLang picks the UI language from the locale variables in POSIX order
// of precedence (LC_ALL, LC_MESSAGES, LANG): a value starting with "ja"
// selects Japanese, anything else English. getenv is os.Getenv in production.
func DetectLang(getenv func(string) string) Lang {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := getenv(k)
		if v == "" {
			continue
		}
		if strings.HasPrefix(strings.ToLower(v), "ja") {
			return LangJapanese
		}
		return LangEnglish
	}
	return LangEnglish
}

// ParseLang maps "en"/"ja" (any case, with an optional region such as
// "ja_JP.UTF-8") to a Lang; anything else is ErrUnknownLanguage.
func ParseLang(s string) (Lang, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	switch {
	case strings.HasPrefix(v, "ja"):
		return LangJapanese, nil
	case strings.HasPrefix(v, "en"):
		return LangEnglish, nil
	}
	return "", fmt.Errorf("%q: %w", s, ErrUnknownLanguage)
}

// msgKey names one UI text in the catalog.
type msgKey int

// catalog is the UI's text in one language. Posts are never translated.
type catalog struct {
	lang Lang
}

// t returns the text for k, formatted with args when given.
func (c catalog) t(k msgKey, args ...any) string {
	e, ok := messages[k]
	if !ok {
		return fmt.Sprintf("!(%d)", int(k))
	}
	s := e[0]
	if c.lang == LangJapanese {
		s = e[1]
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// tn is t for a text that counts n things: in English, a count of one
// takes its noun in the singular (issue 35: "after 1 AI posts in a row");
// Japanese counts do not change.
func (c catalog) tn(k msgKey, n int, args ...any) string {
	r, ok := singular[k]
	if !ok || n != 1 || c.lang == LangJapanese {
		return c.t(k, args...)
	}
	return fmt.Sprintf(strings.Replace(messages[k][0], r[0], r[1], 1), args...)
}

// singular is, for the English texts that count, the words that change
// for a count of one: the first of them in the text becomes the second
// (each is in its text: tested).
var singular = map[msgKey][2]string{
	mSetBrakeN:     {"AI posts", "AI post"},
	mStBraked:      {"%d AI posts", "%d AI post"},
	mBrakeNotice:   {"%d AI posts", "%d AI post"},
	mAttnBraked:    {"AI posts", "AI post"},
	mStBrakeTyped:  {"%d posts", "%d post"},
	mStBrakeLeft:   {"%d posts it held stay", "%d post it held stays"},
	mChatNewer:     {"newer posts", "newer post"},
	mStRejected:    {"%d new posts arrived first. Read them", "%d new post arrived first. Read it"},
	mStCopiedLines: {"%d lines", "%d line"},
	mStSkipped:     {"log lines", "log line"},
	mFolded:        {"%d posts not typed: its queue was full; read_room_history has them", "%d post not typed: its queue was full; read_room_history has it"},
	mPaneCount:     {"lines", "line"},
	mEdBodyLines:   {"lines", "line"},
}

// Catalog keys. Every key has an English and a Japanese text (tested).
const (
	mGroupGlobal msgKey = iota
	mGroupInput
	mGroupLists
	mGroupTopics
	mGroupParticipants
	mGroupPane
	mGroupEditor
	mGroupDialogs

	mHelpQuit
	mHelpQuitServed
	mHelpHelp
	mHelpFocusNext
	mHelpFocusPrev
	mHelpFocusInput
	mHelpToggleTopics
	mHelpToggleParticipants
	mHelpTogglePanes
	mHelpNewTopic
	mHelpPickTopic
	mHelpNextTopic
	mHelpPrevTopic
	mHelpRenameTopic
	mHelpDeleteTopic
	mHelpReleaseBrake
	mHelpMessages
	mHelpCont
	mMsgTitle
	mMsgEmpty
	mMsgFooter
	mHelpNextPane
	mHelpPrevPane
	mHelpClosePane
	mHelpSearch
	mHelpSearchRun
	mHelpSearchNext
	mHelpSearchPrev
	mHelpCopyLines
	mHelpGrowPanes
	mHelpShrinkPanes
	mHelpScrollUp
	mHelpScrollDown
	mHelpSend
	mHelpNewline
	mHelpClear
	mHelpUp
	mHelpDown
	mHelpTop
	mHelpBottom
	mHelpSelect
	mHelpPick
	mHelpCancel
	mHelpSeatStart
	mHelpSeatStop
	mHelpAccountEdit
	mHelpAccountNew
	mHelpQuickClaude
	mHelpQuickCodex
	mHelpQuickCLI
	mHelpSeatOpenPane
	mHelpCopySessionID
	mHelpToggleFold
	mHelpLeavePane
	mHelpScrollback
	mHelpSave
	mHelpNextField
	mHelpPrevField
	mHelpDelete
	mHelpConfirm
	mHelpPopupUp
	mHelpPopupDown
	mHelpRenameSave
	mHelpPickerUp
	mHelpPickerDown
	mHelpPickerOpen
	mHelpScrollbackExit
	mHelpScrollbackPageUp
	mHelpScrollbackPageDown
	mHelpNextFieldAlways
	mHelpPrevFieldAlways
	mHelpChoicePrev
	mHelpChoiceNext
	mHelpDeny
	mHelpSwitchAnswer
	mHelpChooseAnswer
	mHelpTitle
	mHelpFooter
	mHelpFooterScroll
	mHelpJumpLatest
	mHelpHistoryPrev
	mHelpHistoryNext
	mStClearQuitHint
	mStClearDetachHint
	mStTabKeepsText

	mTopicsTitle
	mTopicNew
	mTopicUntitled
	mTopicNone
	mTopicToday
	mTopicLoadFailed
	mTopicRenamePrompt
	mTopicPickerTitle
	mTopicPickerEmpty
	mPickerSearching
	mPickerMoreHits
	mPickerMoreTitles
	mChatNewPosts
	mPickerFailed
	mTopicDeleteTitle
	mTopicDeleteLine
	mTopicDeleteSeats
	mTopicDeleted
	mTopicRenamed
	mNewTopicTitle

	mChatEmpty
	mChatLoading
	mChatBeginning
	mChatLatest
	mChatMore

	mInputPlaceholder
	mInputHint
	mInputSending
	mAddrAbsentAll
	mAddrAbsentAllMany
	mAddrAbsentSome
	mAddrAbsentSomeMany
	mAddrOffline
	mAddrOfflineMany
	mAddrAbsentAllShort
	mAddrAbsentSomeShort
	mAddrOfflineShort
	mAddrJoining
	mAddrJoiningShort

	// Attachments (attach.go, chat_attach.go).
	mInputHintAttach
	mChipMore
	mAttachTitle
	mAttachPlaceholder
	mAttachFooter
	mAttachNoMatch
	mAttachListFailed
	mAttachMoreEntries
	mAttachGone
	mAttachNotFile
	mAttachTooLarge
	mAttachUnreadable
	mAttachOutside
	mAttachRunnable
	mAttachTooMany
	mAttachAlready
	mStAttached
	mStAttachedAs
	mStAttachRefused
	mStDetached
	mStSendAttachFailed
	mStOpened
	mStOpenRefused
	mStOpenFailed
	mHelpAttach
	mHelpDetach
	mHelpOpenAttachment
	mHelpAttachmentPrev
	mHelpAttachmentNext
	mHelpAttachComplete
	mHelpAttachChoose

	mPartsTitle
	mPartsYou
	mPartsOffline
	mPartsResumable
	mStTerminalAttached
	mStSeatAttachRefused
	mPartsStarting
	mPartsRunning
	mPartsExited
	mPartsStopped
	mPartsFailed
	mPartsUnregistered
	mPartsServerExit
	mPartsNotIsolated
	mPartsGuests
	mPartsNone
	mPartsHint
	mPartsQuick
	mPartsFound
	mPartsNotFound
	mKindAdmin
	mKindClaude
	mKindCodex
	mKindCLI
	mKindMCP
	mUsageModel
	mUsageEffort
	mUsage5h
	mUsageWeek
	mUsageCtx
	mUsageLast

	mActThinking
	mActTool
	mActRoomTool
	mActToolAny
	mActPermission
	mActSubagent
	mActSubagents
	mActOutput
	mActIdle
	mActIdleAgo
	mActLimited
	mActLimitedUntil
	mSpanD
	mSpanDH
	mSpanH
	mSpanHM
	mSpanM
	mResetsIn
	mResetsAt
	mHeld
	mHeldUnsent
	mHeldPermission
	mHeldNotReady
	mHeldAnswered
	mHeldTurn
	mHeldConfirm
	mHeldStuck
	mStuckAlone
	mFolded

	mDetTitle
	mDetSession
	mDetRoom
	mDetRoomDown
	mDetVia
	mDetViaPTY
	mDetViaServer
	mDetWindow
	mDetCommand
	mDetDir
	mDetStarted
	mDetNone
	mDetNotIsolated
	mDetIsolation
	mDetIsolated
	mDetCopy
	mDetDelivery
	mDetTaken
	mDetTakenPost
	mDetPending
	mDetPendingText
	mDetStuck
	mDetStuckText
	mDetMissed
	mDetMissedText
	mDetFused
	mDetFusedText

	mPaneStarting
	mPaneRunning
	mPaneExited
	mPaneFailed
	mPaneScrollback
	mPaneTyping
	mPaneNoScrollback
	mPaneWheelClaude
	mPaneWheelCLI
	mPaneOwnScreenClaude
	mPaneOwnScreenCLI
	mPaneLeaves
	mPaneStopped
	mPaneKilled
	mPaneClosable
	mPaneClosableUnfocused
	mPaneBroken
	mPaneFound
	mPaneNotFound
	mPaneCount
	mStPaneClosed
	mStPaneEnded
	mStCopiedLines
	mStNothingToCopy

	mEdTitleNew
	mEdTitleEdit
	mEdID
	mEdKind
	mEdName
	mEdNickname
	mEdHue
	mEdHueNone
	mEdKindChanged
	mEdChangedWith
	mEdChangedName
	mEdChangedCommand
	mEdChangedOptions
	mEdChangedResume
	mEdChangeSep
	mEdChangeEnd
	mEdEmpty
	mEdQuoted
	mEdKindRunning
	mEdDir
	mEdCommand
	mEdOptions
	mEdResume
	mEdCharacter
	mEdEnv
	mEdEnvEmpty
	mEdPreview
	mEdProblems
	mEdFooter
	mEdDeleteArmed
	mEdDeleteRunning
	mEdDeleteSelf
	mEdSaved
	mEdSavedRunning
	mErrNoSecretStore
	mErrKindRunning
	mErrKindMCP
	mErrAccountRunning
	mStKeysBack
	mEdDeleted
	mEdFailed
	mEdNeedDir
	mEdEnvLoading
	mEdEnvFailed
	mEdEnvTooBig
	mEdEnvPasteTooTall
	mEdEnvUnreadable
	mEdAppServer
	mEdAppServerOn
	mEdAppServerOff
	mEdAppServerOnHint
	mEdAppServerOffHint
	mEdPermMode
	mEdPermManual
	mEdPermManualHint
	mEdPermAuto
	mEdPermAutoHint
	mEdPermPlan
	mEdPermPlanHint
	mEdPermAcceptEdits
	mEdPermAcceptEditsHint
	mEdPermCLI
	mEdPermCLIHint
	mEdPermOther
	mEdPermOtherHint

	mDlgCancel
	mDlgStop
	mDlgDelete
	mDlgQuit
	mStopTitle
	mStopLine
	mQuitTitle
	mQuitLine
	mQuitSeat
	mQuitResumes
	mQuitNoSession
	mQuitNoResumeLine
	mQuitGone
	mDlgDetach
	mDlgStopAll
	mLeaveTitle
	mLeaveDetachLine
	mLeaveStopLine

	mStLogFailed
	mStSkipped
	mStResumed
	mStFresh
	mStDropped
	mStStartFailed
	mStTooOld
	mVersionUnread
	mStStopped
	mStRestarting
	mStRestarted
	mStRestartFailed
	mStExited
	mStExitedErr
	mStFailed
	mStSendRefused
	mStRejected
	mStPostFailed
	mStHistoryFailed
	mChatClipped
	mChatNewer
	mStPasteTooBig
	mStPasteTooTall
	mStPostTooLong
	mChatClippedLog
	mChatUntaken
	mChatUntakenMany
	mChatUntakenFold
	mChatSigned
	mStTopicFailed
	mStAccountsFailed
	mStInputFailed
	mStResizeFailed
	mStStopFailed
	mStRenameFailed
	mStRenameHow
	mStRenameListHidden
	mStDeleteFailed
	mStRoomClosed
	mStResynced
	mStHelpHint
	mStWelcome
	mStNarrowPanes
	mStNarrowPanesTopics
	mStNarrowPanesAccounts
	mStNoSeatForPane
	mStNotStartable
	mStCopied
	mStNoSessionID
	mStLaunchWarnings
	mStNoAccounts
	mStBraked
	mBrakeNotice
	mStBrakeReleased
	mStBrakeTyped
	mStBrakeTypedCut
	mStBrakeNoneHeld
	mStBrakeLeft
	mStNotBraked
	mStReleaseFailed
	mStBrakeOn

	// The account editor's messages, preview, character and save flow
	// (editor_character.go, editor_layout.go, editor_save.go).
	mHelpCharacterStyles
	mHelpOpenInEditor
	mHelpReloadBody
	mHelpPreviewUp
	mHelpPreviewDown
	mEdBody
	mEdBodyNoName
	mEdBodyLoading
	mEdBodyNew
	mEdBodyLines
	mEdBodyUnsaved
	mEdBodyNextStart
	mEdBodyHeld
	mEdBodyReadErr
	mEdBodyMoved
	mEdBodyWorn
	mEdBodyFrontClaude
	mEdBodyFrontCodex
	mEdBodyDefinedIn
	mEdBodyHint
	mEdCodexNoFolder
	mEdStylesHint
	mEdStylesNone
	mEdStyleUser
	mEdStyleProject
	mEdViaStyle
	mEdViaEnv
	mEdViaInstructions
	mEdViaInline
	mEdViaNoneInline
	mEdViaNone
	mEdViaNoneCodex
	mEdConfirmMkdir
	mEdConfirmCodex
	mEdConfirmWorn
	mEdConfirmAgain
	mEdNotSavedProblems
	mEdNotSavedMoved
	mEdBodyTooBig
	mEdDiscardAsk
	mEdNoEditor
	mEdEditDirty
	mEdEditArm
	mEdEditFailed
	mEdEditNoName
	mEdFieldProblem
	mEdFieldLineProblem
	mEdPreviewScroll
	mEdMore
	mEdBodyPasteRefused

	mEdSrvSection
	mEdSrvEntry
	mEdSrvState
	mEdSrvArgs
	mEdSrvNotStarted
	mEdSrvStarting
	mEdSrvRunning
	mEdSrvExited
	mEdSrvFailed
	mEdSrvStopped
	mEdSrvRestartHint
	mEdSrvSaveRestartHint
	mEdSrvStopHint
	mEdSrvUnregistered
	mEdSrvStale
	mEdSrvLoading
	mEdSrvReadFailed
	mEdSrvUnavailable
	mEdSrvRestarting
	mEdSrvRestartFailed
	mEdSrvRestartAsked
	mEdSrvSavedRestart
	mEdSrvLog
	mEdSrvLogEmpty
	mEdSrvNewHint
	mEdSrvWarnings

	// The settings overlay (settings.go, settings_update.go).
	mGroupSettings
	mHelpSettings
	mHelpSettingsLess
	mHelpSettingsMore
	mHelpSettingsSection
	mHelpSettingsSectionPrev
	mSetTitle
	mSetSecDisplay
	mSetSecRoom
	mSetSecKeys
	mSetSecData
	mSetLanguage
	mSetTheme
	mSetTopics
	mSetParticipants
	mSetPanes
	mSetPaneShare
	mSetBrake
	mSetLangLocale
	mSetLangEnvWins
	mSetLangEnglish
	mSetLangJapanese
	mSetThemeAuto
	mSetThemeLight
	mSetThemeDark
	mSetShown
	mSetHidden
	mSetShare
	mSetBrakeN
	mSetBrakeOff
	mSetLanguageNote
	mSetLanguageEnv
	mSetThemeNote
	mSetPanelNote
	mSetShareNote
	mSetBrakeNote
	mSetBrakeKeys
	mSetSessionOps
	mCardHeld
	mStNoCard
	mCardAlwaysHidden
	mSetSessionOpsTopic
	mSetSessionOpsAll
	mSetSessionOpsOff
	mSetSessionOpsNote
	mSetSecNotify
	mSetNotify
	mSetNotifySeq
	mSetNotifyDwell
	mSetNotifyCooldown
	mSetPermissionWait
	mSetNotifyOff
	mSetNotifyTerminal
	mSetNotifyDesktop
	mSetSeqAuto
	mRingInTmux
	mSetSeqOSC9
	mSetSeqOSC777
	mSetSeqBEL
	mSetSeqOSC99
	mSetAtOnce
	mSetDwellN
	mSetCooldownNone
	mSetSeconds
	mSetMinutes
	mSetHours
	mSetNotifyNote
	mSetNotifySeqNote
	mSetNotifyDwellNote
	mSetNotifyCooldownNote
	mSetPermissionWaitNote
	mSetKeysNote
	mSetFile
	mSetColName
	mSetColKeys
	mSetColWhat
	mSetDataIntro
	mSetDataDefault
	mSetDataEnv
	mSetDataFlag
	mSetDataHolds
	mSetDataMove
	mSetFooter
	mSetApplied
	mSetReadOnly
	mSetFooterRead
	mSetSaved
	mSetLoading
	mSetLoadFailed
	mSetSaveFailed
	mSetViewFailed
	mSetAvatars
	mSetAvatarsNames
	mSetAvatarsInitials
	mSetAvatarsNote

	// The permission cards (permission.go, permission_update.go).
	mGroupPermission
	mHelpPermission
	mHelpPermAllow
	mHelpPermAlways
	mHelpPermDeny
	mHelpPermReason
	mHelpPermSend
	mHelpPermPane
	mHelpPermPrev
	mHelpPermNext
	mCardTitle
	mCardMCP
	mCardAgent
	mCardTopic
	mCardMore
	mCardAlways
	mCardSuggestionsCut
	mCardRuleAllow
	mCardRuleDeny
	mCardRuleAsk
	mCardRulesRemove
	mCardRulesReplace
	mCardMode
	mCardDirsAdd
	mCardDirsRemove
	mCardDestSession
	mCardDestLocal
	mCardDestProject
	mCardDestUser
	mCardDestCLI
	mCardReason
	mCardSending
	mCardFocus
	mCardWaiting
	mCardSendReason
	mCardBack
	mCardAllow
	mCardAllowAlways
	mCardDeny
	mCardDenyReason
	mCardPane
	mCardOther
	mCardReadOn
	mCardReadMore
	mCardReadDone
	mCardReadCut
	mCardReadFirst
	mCardCutPane
	mCardJustShown
	mStCardUnread
	mStCardNoAlways
	mStCardOnItsWay
	mStCardAsked
	mStCardAllowed
	mStCardsWaiting
	mStCardAllowedAlways
	mStCardDenied
	mStCardTimedOut
	mStCardElsewhere
	mStCardFailed
	mStCardNoPane

	// What needs the human (attention.go).
	mAttnTitle
	mAttnEmpty
	mAttnFooter
	mAttnCard
	mAttnCardTimedOut
	mAttnAddressed
	mAttnLimited
	mAttnLimitedUnknown
	mAttnResumed
	mAttnExited
	mAttnBraked
	mAttnOpFailed
	mAttnMCPDied
	mStNeedsYou
	mHelpNeedsYou
	mHelpNeedsYouList

	mCatalogEnd // not a text: one past the last key (the catalog test)
)

// messages holds {English, Japanese} for every key.
var messages = map[msgKey][2]string{
	mGroupGlobal:       {"Everywhere", "どこでも"},
	mGroupInput:        {"Input bar", "入力欄"},
	mGroupLists:        {"Lists and chat", "一覧と会話"},
	mGroupTopics:       {"Topic list", "トピックの一覧"},
	mGroupParticipants: {"Accounts", "アカウント"},
	mGroupPane:         {"Seat terminal", "席の端末"},
	mGroupEditor:       {"Account editor", "アカウントの編集"},
	mGroupDialogs:      {"Yes/no dialogs", "確認ダイアログ"},

	mHelpQuit:               {"quit", "終了"},
	mHelpQuitServed:         {"detach (seats run on)", "切り離す（席は動き続ける）"},
	mHelpHelp:               {"this help", "このヘルプ"},
	mHelpFocusNext:          {"next area (from the input bar only when it is empty)", "次の面へ（入力欄からは空のときだけ）"},
	mHelpFocusPrev:          {"previous area", "前の面へ"},
	mHelpFocusInput:         {"back to the input bar", "入力欄へ戻る"},
	mHelpToggleTopics:       {"show/hide topics", "トピックの開閉"},
	mHelpToggleParticipants: {"show/hide accounts", "アカウントの開閉"},
	mHelpTogglePanes:        {"show/hide seat terminals", "端末の開閉"},
	mHelpNewTopic:           {"new topic", "新しいトピック"},
	mHelpPickTopic:          {"find a topic or a post", "トピックや発言を探す"},
	mHelpNextTopic:          {"next topic", "次のトピック"},
	mHelpPrevTopic:          {"previous topic", "前のトピック"},
	mHelpRenameTopic:        {"rename topic", "トピックの名前を変える"},
	mHelpDeleteTopic:        {"delete topic", "トピックを削除"},
	mHelpReleaseBrake:       {"release the AI brake", "AI 連投のブレーキを解除"},
	mHelpCont:               {" (continued)", "（続き）"},
	mHelpMessages:           {"the status line's messages, whole", "ステータス行のメッセージを全文で"},
	mMsgTitle:               {"Messages (newest first)", "メッセージ（新しい順）"},
	mMsgEmpty:               {"No messages yet.", "メッセージはまだありません。"},
	mMsgFooter:              {"↑/↓ PgUp/PgDn scroll · %s or %s: close", "↑/↓ PgUp/PgDn でスクロール · %s か %s で閉じる"},
	mHelpNextPane:           {"type into the next seat terminal", "次の席の端末へ打ち込む"},
	mHelpPrevPane:           {"previous seat terminal", "前の席の端末へ打ち込む"},
	mHelpClosePane:          {"close exited terminal", "終了した端末を閉じる"},
	mHelpSearch:             {"search the scrollback", "スクロールバックを検索"},
	mHelpSearchRun:          {"run the / search", "/ の検索を実行"},
	mHelpSearchNext:         {"next match (older)", "次の一致（古い方へ）"},
	mHelpSearchPrev:         {"previous match (newer)", "前の一致（新しい方へ）"},
	mHelpCopyLines:          {"copy the selection or N lines", "選択か N 行をコピー"},
	mHelpGrowPanes:          {"larger terminals", "端末を広げる"},
	mHelpShrinkPanes:        {"smaller terminals", "端末を狭める"},
	mHelpScrollUp:           {"scroll chat up (older posts load)", "会話を上へ（古い発言を読む）"},
	mHelpScrollDown:         {"scroll chat down", "会話を下へ"},
	mHelpSend:               {"send", "送信"},
	mHelpNewline:            {"new line", "改行"},
	mHelpClear:              {"clear the input (never quits)", "入力を消す（終了はしない）"},
	mHelpUp:                 {"move up", "上へ"},
	mHelpDown:               {"move down", "下へ"},
	mHelpTop:                {"first / oldest", "先頭へ"},
	mHelpBottom:             {"last / latest", "末尾・最新へ"},
	mHelpSelect:             {"open / choose", "開く・選ぶ"},
	mHelpPick:               {"pick a name (@ popup)", "名前を選ぶ（@ の候補）"},
	mHelpCancel:             {"close / cancel", "閉じる・取消"},
	mHelpSeatStart:          {"start the seat", "席を開始"},
	mHelpSeatStop:           {"stop the seat", "席を終了"},
	mHelpAccountEdit:        {"edit the account", "アカウントを編集"},
	mHelpAccountNew:         {"new account", "新しいアカウント"},
	mHelpQuickClaude:        {"new Claude Code account", "Claude Code のアカウントを作る"},
	mHelpQuickCodex:         {"new Codex CLI account", "Codex CLI のアカウントを作る"},
	mHelpQuickCLI:           {"new CLI account", "CLI のアカウントを作る"},
	mHelpSeatOpenPane:       {"type into its terminal", "その端末へ打ち込む"},
	mHelpCopySessionID:      {"copy the session id", "セッション ID をコピー"},
	mHelpToggleFold:         {"expand/fold notices", "通知の畳みを開閉"},
	mHelpLeavePane:          {"leave the terminal", "端末から出る"},
	mHelpScrollback:         {"scrollback (Esc ends)", "スクロールバック（Esc で戻る）"},
	mHelpSave:               {"save", "保存"},
	mHelpNextField:          {"next field", "次の欄"},
	mHelpPrevField:          {"previous field", "前の欄"},
	mHelpDelete:             {"delete (press twice)", "削除（二度押し）"},
	mHelpConfirm:            {"answer yes", "はい"},
	mHelpPopupUp:            {"previous name (@ popup)", "前の名前（@ の候補）"},
	mHelpPopupDown:          {"next name (@ popup)", "次の名前（@ の候補）"},
	mHelpRenameSave:         {"keep the new topic name", "新しいトピック名にする"},
	mHelpPickerUp:           {"previous topic (finder)", "前のトピック（検索）"},
	mHelpPickerDown:         {"next topic (finder)", "次のトピック（検索）"},
	mHelpPickerOpen:         {"open the topic (finder)", "トピックを開く（検索）"},
	mHelpScrollbackExit:     {"leave the scrollback", "スクロールバックを終える"},
	mHelpScrollbackPageUp:   {"scrollback: page up", "履歴: 一画面上へ"},
	mHelpScrollbackPageDown: {"scrollback: page down", "履歴: 一画面下へ"},
	mHelpNextFieldAlways:    {"next field (env too)", "次の欄（環境変数も）"},
	mHelpPrevFieldAlways:    {"previous field (env too)", "前の欄（環境変数も）"},
	mHelpChoicePrev:         {"previous kind / hue", "前の種別・色"},
	mHelpChoiceNext:         {"next kind / hue", "次の種別・色"},
	mHelpDeny:               {"answer no", "いいえ"},
	mHelpSwitchAnswer:       {"switch the answer", "答えを切り替える"},
	mHelpChooseAnswer:       {"press the chosen answer", "選んでいる答えを押す"},
	mHelpTitle:              {"Keys", "キー"},
	mHelpFooter:             {"Esc or F1 closes", "Esc か F1 で閉じる"},
	mHelpFooterScroll:       {"↑↓ PgUp PgDn Home End scroll · Esc or F1 closes", "↑↓ PgUp PgDn Home End でスクロール · Esc か F1 で閉じる"},
	mHelpJumpLatest:         {"chat to the newest post (in the input bar: with the caret at the end of its line)", "会話を最新の発言へ（入力欄ではカーソルが行末にあるとき）"},
	mHelpHistoryPrev:        {"your previous post in this topic (empty input)", "このトピックでの自分の前の発言（空の入力欄で）"},
	mHelpHistoryNext:        {"your next post (while recalling)", "自分の次の発言（呼び出し中）"},
	mStClearQuitHint:        {"Nothing to clear. %s quits.", "消す入力はありません。終了は %s です。"},
	mStClearDetachHint:      {"Nothing to clear. %s detaches.", "消す入力はありません。切り離しは %s です。"},
	mStTabKeepsText:         {"%s keeps to typed text; %s moves on.", "入力中の %s は入力欄のまま。移るには %s。"},

	mTopicsTitle:       {"Topics", "トピック"},
	mTopicNew:          {"+ New topic", "＋ 新規"},
	mTopicUntitled:     {"Untitled", "無題"},
	mTopicNone:         {"No topics yet", "トピックなし"},
	mTopicToday:        {"Today", "今日"},
	mTopicLoadFailed:   {"Topics could not be read: %v", "トピックを読めません: %v"},
	mTopicRenamePrompt: {"Name: ", "名前: "},
	mTopicPickerTitle:  {"Find a topic or a post", "トピックと発言を探す"},
	mTopicPickerEmpty:  {"No topic or post matches", "一致するトピックも発言もなし"},
	mPickerSearching:   {"Searching the posts of every topic…", "全トピックの発言を検索中…"},
	mPickerMoreHits:    {"The first %d posts found: type more to narrow", "見つかった最初の %d 件: 絞り込むには続けて入力"},
	mPickerMoreTitles:  {"The first %d topics: type more to narrow", "最初の %d 件のトピック: 絞り込むには続けて入力"},
	mChatNewPosts:      {"new", "新着"},
	mPickerFailed:      {"Searching posts failed: %v", "発言の検索に失敗しました: %v"},
	mTopicDeleteTitle:  {"Delete topic", "トピックの削除"},
	mTopicDeleteLine:   {"Delete topic “%s” and its log?", "トピック「%s」とそのログを削除します。"},
	mTopicDeleteSeats:  {"These seats will stop: %s", "止まるセッション: %s"},
	mTopicDeleted:      {"Deleted topic “%s”.", "トピック「%s」を削除しました。"},
	mTopicRenamed:      {"Renamed topic to “%s”.", "トピックの名前を「%s」にしました。"},
	mNewTopicTitle:     {"New topic", "新しいトピック"},

	mChatEmpty:     {"No posts yet. Write below; @name addresses someone.", "まだ発言はありません。下に書いてください。@名前 で宛先を指定できます。"},
	mChatLoading:   {"— loading older posts —", "— 古い発言を読んでいます —"},
	mChatBeginning: {"— beginning of the topic —", "— トピックの始まり —"},
	mChatLatest:    {"↓ latest (End)", "↓ 最新へ（End）"},
	mChatNewer:     {"↓ %d newer posts (End)", "↓ 新しい発言 %d 件（End）"},
	mChatMore:      {"%s (%d)", "%s (%d)"},

	mInputPlaceholder: {"Say something to the room", "部屋に発言する"},
	mInputHint:        {"@ address · Enter send · Shift+Enter newline", "@ 宛先 · Enter 送信 · Shift+Enter 改行"},
	mInputSending:     {"sending…", "送信中…"},
	// Addressing while typing (addressing.go, issue 14).
	mAddrJoining:        {"%s has not joined the room: not addressed", "%s はまだ部屋に入っていません: 宛先になりません"},
	mAddrJoiningShort:   {"%s: not joined", "%s: 未入室"},
	mAddrAbsentAll:      {"%s is not in this room — the post goes to everyone", "%s はこの部屋にいません — 投稿は全員宛てになります"},
	mAddrAbsentAllMany:  {"%s are not in this room — the post goes to everyone", "%s はこの部屋にいません — 投稿は全員宛てになります"},
	mAddrAbsentSome:     {"%s is not in this room: not addressed", "%s はこの部屋にいません — 宛先になりません"},
	mAddrAbsentSomeMany: {"%s are not in this room: not addressed", "%s はこの部屋にいません — 宛先になりません"},
	mAddrOffline:        {"%s is offline: it will see this in its unseen history", "%s はオフラインです: 起動すると未読の履歴で読みます"},
	mAddrOfflineMany:    {"%s are offline: they will see this in their unseen history", "%s はオフラインです: 起動すると未読の履歴で読みます"},
	// The short forms, for an edge too narrow for the sentence (30 cells at 80×24).
	mAddrAbsentAllShort:  {"%s: not in room, to everyone", "%s: 不在 — 全員宛て"},
	mAddrAbsentSomeShort: {"%s: not in room, not addressed", "%s: 不在 — 宛先外"},
	mAddrOfflineShort:    {"%s: offline, reads it later", "%s: オフライン — 後で読む"},

	// Attachments (docs/design.md §8 "Attachments").
	mInputHintAttach:   {"%s attach", "%s 添付"},
	mChipMore:          {"+%d", "+%d"},
	mAttachTitle:       {"Attach a file", "ファイルを添付"},
	mAttachPlaceholder: {"path of a file (~ is your home folder)", "ファイルのパス（~ はホームフォルダ）"},
	mAttachFooter:      {"Tab completes · Enter attaches · Esc closes · or drop files on the input", "Tab 補完 · Enter 添付 · Esc 閉じる · 入力欄へのドロップでも添付"},
	mAttachNoMatch:     {"Nothing here starts with that.", "そう始まるものはありません。"},
	mAttachListFailed:  {"Cannot list the folder: %v", "フォルダを一覧できません: %v"},
	mAttachMoreEntries: {"… more: type to narrow", "…ほかにもあります。入力して絞り込んでください"},
	mAttachGone:        {"%s is not there (gone, or the path is mistyped).", "%s はありません（消えたか、パスの誤り）。"},
	mAttachNotFile:     {"%s is not a file (a folder, device or pipe).", "%s はファイルではありません（フォルダ・デバイス・パイプ）。"},
	mAttachTooLarge:    {"%s is %s; an attachment is at most %s.", "%s は %s あります。添付は %s までです。"},
	mAttachUnreadable:  {"%s cannot be read: %s", "%s を読めません: %s"},
	mAttachOutside:     {"%s is not (or no longer) a file of the attachments folder.", "%s は添付フォルダのファイルではありません（消えた可能性もあります）。"},
	mAttachRunnable:    {"%s is not a picture, PDF, text or media file, so Pullcept does not open it (it could run as a program). If you trust it, open it yourself: %s", "%s は画像・PDF・テキスト・メディアではないため Pullcept は開きません（プログラムとして動くことがあります）。信頼できるなら自分で開いてください: %s"},
	mAttachTooMany:     {"A post carries at most %d attachments.", "添付は一つの発言に %d 個までです。"},
	mAttachAlready:     {"%s is already attached.", "%s は添付済みです。"},
	mStAttached:        {"Attached %s.", "%s を添付しました。"},
	mStAttachedAs: {"Attached %s; it is saved as “%s” (characters a terminal or Windows cannot carry are replaced).",
		"%s を添付しました。「%s」として保存します（端末や Windows が扱えない文字は置き換えます）。"},
	mStAttachRefused: {"Not attached: %s", "添付しませんでした: %s"},
	mStDetached:      {"Removed the attachment %s.", "添付 %s を外しました。"},
	mStSendAttachFailed: {"Not sent: %s Your text and attachments are back in the input (%s removes the last attachment).",
		"送れません: %s 本文と添付は入力欄に戻しました（%s で最後の添付を外せます）。"},
	mStOpened:           {"Opened %s.", "%s を開きました。"},
	mStOpenRefused:      {"Not opened: %s", "開きませんでした: %s"},
	mStOpenFailed:       {"Not opened: %v. The file is at %s", "開けません: %v。ファイルの場所: %s"},
	mHelpAttach:         {"attach a file", "ファイルを添付"},
	mHelpDetach:         {"remove the last attachment", "最後の添付を外す"},
	mHelpOpenAttachment: {"open the chosen attachment (chat)", "選んだ添付を開く（会話）"},
	mHelpAttachmentPrev: {"previous attachment (chat)", "前の添付（会話）"},
	mHelpAttachmentNext: {"next attachment (chat)", "次の添付（会話）"},
	mHelpAttachComplete: {"complete the path (attach)", "パスを補完（添付）"},
	mHelpAttachChoose:   {"attach the file / open the folder (attach)", "ファイルを添付・フォルダを開く（添付）"},

	mPartsTitle:          {"Accounts", "アカウント"},
	mPartsYou:            {"(you)", "（あなた）"},
	mPartsOffline:        {"offline", "未起動"},
	mPartsResumable:      {"resumable", "再開できます"},
	mStTerminalAttached:  {"Another terminal attached (client %d, %s).", "別の端末が接続しました（クライアント %d、%s）。"},
	mStSeatAttachRefused: {"A seat tried to attach and was refused (%s).", "席のプロセスが接続しようとして、拒否されました（%s）。"},
	mPartsStarting:       {"starting", "起動中"},
	mPartsRunning:        {"running", "稼働中"},
	mPartsExited:         {"exited", "終了"},
	mPartsStopped:        {"stopped", "停止"},
	mPartsFailed:         {"failed", "起動失敗"},
	mPartsUnregistered:   {"unregistered", "未登録"},
	mPartsServerExit:     {"exit code %d", "終了コード %d"},
	// A seat whose processes the others can see (docs/design.md §16).
	mPartsNotIsolated: {"not isolated", "分離されていません"},
	mPartsGuests:      {"Guests", "ゲスト"},
	mPartsNone:        {"No participants", "参加者なし"},
	mPartsHint:        {"No AI accounts yet. Create one:", "AI のアカウントがありません。作成:"},
	mPartsQuick:       {"%s (%s)", "%s（%s）"},
	mPartsFound:       {"found", "検出"},
	mPartsNotFound:    {"not on PATH", "PATH に無し"},
	mKindAdmin:        {"admin", "管理者"},
	mKindClaude:       {"Claude Code", "Claude Code"},
	mKindCodex:        {"Codex CLI", "Codex CLI"},
	mKindCLI:          {"CLI", "CLI（汎用）"},
	mKindMCP:          {"MCP", "MCP"},
	mUsageModel:       {"model", "モデル"},
	mUsageEffort:      {"effort", "エフォート"},
	mUsage5h:          {"5h", "5時間"},
	mUsageWeek:        {"week", "週次"},
	mUsageCtx:         {"ctx", "コンテキスト"},
	mUsageLast:        {"last known", "最後の値"},

	// What a running seat is doing (spec «走っているアカウントが何をしているか»).
	mActThinking:     {"thinking…", "考え中…"},
	mActTool:         {"running %s", "%s を実行中"},
	mActToolAny:      {"running a tool", "ツールを実行中"},
	mActRoomTool:     {"using the room", "部屋を使用中"},
	mActPermission:   {"waiting for permission", "許可待ち"},
	mActSubagent:     {"1 subagent", "サブエージェント 1 件"},
	mActSubagents:    {"%d subagents", "サブエージェント %d 件"},
	mActOutput:       {"outputting", "出力中"},
	mActIdle:         {"idle", "待機"},
	mActIdleAgo:      {"idle %s ago", "%s前から待機"},
	mActLimited:      {"limited", "制限中"},
	mActLimitedUntil: {"limited · resets %s", "制限中 · %s に解除"},
	mSpanD:           {"%d d", "%d日"},
	mSpanDH:          {"%d d %d h", "%d日%d時間"},
	mSpanH:           {"%d h", "%d時間"},
	mSpanHM:          {"%d h %d min", "%d時間%d分"},
	mSpanM:           {"%d min", "%d分"},
	mResetsIn:        {"resets in %s", "%s後にリセット"},
	mResetsAt:        {"resets %[2]s %[1]s", "%[1]s (%[2]s) にリセット"},
	mHeld:            {"%d held", "%d件保留"},
	mHeldUnsent:      {"%d held — you have unsent text in its terminal", "%d件保留：端末に未送信の入力があります"},
	mHeldPermission:  {"%d held — waiting for permission", "%d件保留：許可待ち"},
	mHeldNotReady:    {"%d held — not ready", "%d件保留：準備中"},
	mHeldAnswered:    {"%d held — until it goes on after your answer", "%d件保留：答えの後の動きを待っています"},
	mHeldTurn:        {"%d held — until its turn ends", "%d件保留：ターンの終わりを待っています"},
	mHeldConfirm:     {"%d held — until it takes the last post", "%d件保留：前の投稿の受け取り待ち"},
	mFolded:          {"%d posts not typed: its queue was full; read_room_history has them", "%d件は未入力：キューが満杯。read_room_history で読めます"},
	mHeldStuck:       {"%d held — not taken: Enter in its pane sends, Ctrl+U clears", "%d件保留：未受理。端末で Enter 送信、Ctrl+U 消去"},
	mStuckAlone:      {"a post not taken: Enter in its pane sends, Ctrl+U clears", "未受理の投稿：端末で Enter 送信、Ctrl+U 消去"},

	mDetTitle:       {"Details · %s", "詳細 · %s"},
	mDetSession:     {"session", "ID"},
	mDetRoom:        {"room", "部屋"},
	mDetRoomDown:    {"room socket not listening: seats cannot post (%s)", "部屋ソケットが待ち受けていません。席は発言できません（%s）"},
	mDetVia:         {"via", "接続"},
	mDetViaPTY:      {"terminal (PTY)", "端末（PTY）"},
	mDetViaServer:   {"terminal → app-server", "端末 → app-server"},
	mDetWindow:      {"window", "画面"},
	mDetCommand:     {"command", "コマンド"},
	mDetDir:         {"dir", "場所"},
	mDetStarted:     {"started", "開始"},
	mDetNone:        {"none", "なし"},
	mDetNotIsolated: {"not isolated — other seats can see, read and signal its processes: %s", "分離されていません（他の席からこの席のプロセスが見え、読め、シグナルを送れます）: %s"},
	mDetIsolation:   {"isolation", "分離"},
	mDetIsolated:    {"own namespaces", "専用の名前空間"},
	mDetCopy:        {"%s copies it", "%s でコピー"},
	// A seat whose CLI confirms each post (docs/design.md §5).
	mDetDelivery:    {"delivery", "投稿の受け取り"},
	mDetTaken:       {"taken", "受取"},
	mDetTakenPost:   {`%s "%s"`, "%s「%s」"},
	mDetPending:     {"pending", "受取待ち"},
	mDetPendingText: {"typed, not taken yet", "打ち込み済み、受け取り待ち"},
	mDetStuck:       {"stuck", "詰まり"},
	mDetStuckText:   {"a post not taken: Enter in its pane sends it, Ctrl+U clears it", "投稿が未受理。端末で Enter で送信、Ctrl+U で消去"},
	mDetMissed:      {"missed", "未受理"},
	mDetMissedText:  {"%d never taken; see the chat", "%d件・会話に印"},
	mDetFused:       {"fused", "結合"},
	mDetFusedText:   {"%d× posts merged in one submit", "%d回：複数の投稿を一度に送信"},

	mPaneStarting:          {"starting", "起動中"},
	mPaneRunning:           {"running", "稼働中"},
	mPaneExited:            {"exited %d", "終了 %d"},
	mPaneStopped:           {"stopped", "停止"},
	mPaneKilled:            {"killed by signal %d", "シグナル %d で終了"},
	mPaneClosable:          {"%s closes", "%s で閉じる"},
	mPaneClosableUnfocused: {"%s, %s closes", "%s → %s で閉じる"},
	mPaneBroken:            {"frozen: emulator error", "停止: エミュレータの異常"},
	mPaneFound:             {"/%s %d/%d", "/%s %d/%d"},
	mPaneNotFound:          {"/%s not found", "/%s 見つかりません"},
	mPaneCount:             {"%d lines", "%d 行"},
	mPaneFailed:            {"failed", "起動失敗"},
	mPaneScrollback:        {"scrollback %d/%d", "スクロールバック %d/%d"},
	mPaneTyping:            {"typing", "入力中"},
	mPaneLeaves:            {"%s leaves", "%s で出る"},

	// A pane in scrollback whose program draws on the alternate screen:
	// none here (its title), and where its own view is (its lower border).
	mPaneNoScrollback:    {"no scrollback", "履歴なし"},
	mPaneWheelClaude:     {"the wheel scrolls Claude's own view", "ホイールで Claude 自身の表示をスクロール"},
	mPaneWheelCLI:        {"the wheel scrolls the CLI's own view", "ホイールで CLI 自身の表示をスクロール"},
	mPaneOwnScreenClaude: {"Claude draws on a screen of its own", "Claude は専用の画面に描画中"},
	mPaneOwnScreenCLI:    {"the CLI draws on a screen of its own", "CLI は専用の画面に描画中"},

	// Said once while the panes are narrow (narrowPaneCols) and side
	// columns show; short enough for an 80-column status line.
	mStNarrowPanes:         {"Narrow panes: %s hides topics, %s accounts", "端末が狭い: %s で左、%s で右の列を隠す"},
	mStNarrowPanesTopics:   {"Narrow panes: %s hides the topics", "端末が狭い: %s で左のトピック一覧を隠す"},
	mStNarrowPanesAccounts: {"Narrow panes: %s hides the accounts", "端末が狭い: %s で右のアカウント欄を隠す"},

	mEdTitleNew:        {"New account", "新しいアカウント"},
	mEdTitleEdit:       {"Account", "アカウント"},
	mEdID:              {"id", "アカウント ID"},
	mEdKind:            {"kind", "種別"},
	mEdName:            {"name", "名前"},
	mEdNickname:        {"nickname", "ニックネーム"},
	mEdHue:             {"hue", "色"},
	mEdHueNone:         {"— (from the name)", "—（名前から）"},
	mEdDir:             {"working dir", "作業ディレクトリ"},
	mEdCommand:         {"command", "コマンド"},
	mEdOptions:         {"launch options", "起動オプション"},
	mEdResume:          {"resume line", "再開の行"},
	mEdCharacter:       {"character", "キャラクター"},
	mEdEnv:             {"env (NAME=value)", "環境変数"},
	mEdEnvEmpty:        {"—", "—（NAME=値 を一行に一つ）"},
	mEdPreview:         {"Launch line", "起動する行"},
	mEdProblems:        {"Problems", "問題"},
	mEdFooter:          {"%s save · %s cancel · %s delete · ←/→ change kind/hue", "%s 保存 · %s 取消 · %s 削除 · ←/→ 種別・色を変える"},
	mEdDeleteArmed:     {"Press %s again to delete this account.", "もう一度 %s で削除します。"},
	mEdDeleteRunning:   {"A running account cannot be deleted: stop its seats first.", "稼働中のアカウントは削除できません。先に席を終了してください。"},
	mEdDeleteSelf:      {"This screen's own admin account cannot be deleted.", "この画面の管理者アカウントは削除できません。"},
	mEdSaved:           {"Saved account “%s”.", "アカウント「%s」を保存しました。"},
	mStKeysBack:        {" Your keys are back in the input bar.", "キー入力は入力欄に戻りました。"},
	mErrNoSecretStore:  {"env values cannot be sealed: no secret store answers (on Linux a Secret Service must run: gnome-keyring or KeePassXC).", "環境変数の値を暗号化できません。秘密の保管場所が応答しません（Linux では Secret Service が必要です: gnome-keyring か KeePassXC）。"},
	mErrKindRunning:    {"Its seat is running: stop it before changing the kind.", "席が起動中です。種別を変える前に停止してください。"},
	mErrKindMCP:        {"An MCP server's account keeps its kind: make a new account instead.", "MCP サーバーのアカウントの種別は変えられません。新しいアカウントを作ってください。"},
	mErrAccountRunning: {"Its seat is running: stop it first.", "席が起動中です。先に停止してください。"},
	mEdSavedRunning:    {" Its running seat keeps its launch until its next start (%s stops it, %s starts it).", "起動中の席は次の起動まで今の設定のままです（%s で停止、%s で起動）。"},
	mEdDeleted:         {"Deleted account “%s”.", "アカウント「%s」を削除しました。"},
	mEdFailed:          {"Not saved: %v", "保存できません: %v"},
	mEdNeedDir:         {"%s has no working directory: set one to start it", "%s には作業ディレクトリがありません。設定すると起動できます"},
	mEdEnvLoading:      {"Opening the values… (read-only until then)", "値を開いています…（それまでは読み取り専用）"},
	mEdEnvFailed:       {"The env vars cannot be shown, so the field is read-only; saving keeps them as they are. %v", "環境変数を表示できないため、欄は読み取り専用です。保存しても変数はそのまま残ります。%v"},
	mEdEnvTooBig:       {"This account has %d env lines; the field holds %d rows, so it is read-only and saving keeps them all. Edit config.json to remove some.", "このアカウントの環境変数は %d 行あり、欄は %d 行までです。読み取り専用とし、保存しても全て残ります。減らすには config.json を編集してください。"},
	mEdEnvPasteTooTall: {"Paste not taken: the env field would have %d rows; it holds %d.", "貼り付けませんでした: 環境変数の欄が %d 行になります。欄は %d 行までです。"},
	mEdEnvUnreadable:   {"Cannot be opened (sealed by another user, machine or key, or damaged): %s. Left as it is it is kept, but the seat will not start; delete it or type the value again.", "開けない値があります（別のユーザー・機械・鍵で暗号化されたか、壊れています）: %s。そのままなら残りますが、席は起動しません。消すか、値を入れ直してください。"},

	// A Codex account's seat mode (editor.go fieldValue).
	mEdAppServer:           {"app-server mode", "app-server 方式"},
	mEdAppServerOn:         {"on", "オン"},
	mEdAppServerOff:        {"off", "オフ"},
	mEdAppServerOnHint:     {"one app-server per seat, the real TUI attached (standard)", "席ごとに app-server を一つ、本物の TUI をつなぐ（標準）"},
	mEdAppServerOffHint:    {"hook mode (compatibility)", "フック方式（互換）"},
	mEdPermMode:            {"permissions", "許可の方式"},
	mEdPermManual:          {"manual", "manual（毎回確認）"},
	mEdPermManualHint:      {"asks before each tool: a card shows here", "ツールごとに確認し、ここにカードが出ます"},
	mEdPermAuto:            {"auto", "auto（自動判断）"},
	mEdPermAutoHint:        {"Claude Code decides what is safe: few cards", "Claude Code が安全かを判断し、カードはまれです"},
	mEdPermPlan:            {"plan", "plan（計画のみ）"},
	mEdPermPlanHint:        {"plans only, edits nothing: cards to leave plan mode", "計画だけで編集しません。計画を終えるときにカード"},
	mEdPermAcceptEdits:     {"acceptEdits", "acceptEdits（編集は自動）"},
	mEdPermAcceptEditsHint: {"file edits without asking; cards for commands", "ファイル編集は確認なし、コマンドはカード"},
	mEdPermCLI:             {"the CLI's own", "CLI の設定のまま"},
	mEdPermCLIHint:         {"its settings decide (2.1.328 starts in auto: no cards)", "CLI の設定で決まります（2.1.328 は auto で始まり、カードは出ません）"},
	mEdPermOther:           {"as in config.json", "config.json のまま"},
	mEdPermOtherHint:       {"a mode that asks nothing: no cards", "何も確認しない方式で、カードは出ません"},

	// A kind change (editor_kind.go): what went with the old kind.
	mEdKindChanged:    {"Kind is now %s (not saved yet).", "種別を%sにしました（未保存）。"},
	mEdChangedWith:    {" Changed with it: ", "あわせて変えたもの: "},
	mEdChangedName:    {"name %s → %s", "名前%s→%s"},
	mEdChangedCommand: {"command %s → %s", "コマンド%s→%s"},
	mEdChangedOptions: {"launch options %s → %s", "起動オプション%s→%s"},
	mEdChangedResume:  {"resume line %s → %s", "再開の行%s→%s"},
	mEdChangeSep:      {"; ", "、"},
	mEdChangeEnd:      {".", "。"},
	mEdEmpty:          {"(empty)", "（空）"},
	mEdQuoted:         {"“%s”", "「%s」"},
	mEdKindRunning:    {"A running account's kind cannot change: stop its seats first.", "稼働中のアカウントの種別は変えられません。先に席を終了してください。"},

	mDlgCancel: {"Cancel", "取消"},
	mDlgStop:   {"Stop", "終了"},
	mDlgDelete: {"Delete", "削除"},
	mDlgQuit:   {"Quit", "終了"},
	mStopTitle: {"Stop seat", "セッションの終了"},
	mStopLine:  {"Stop %s in this topic?", "このトピックの %s を終了します。"},
	mQuitTitle: {"Quit Pullcept", "アプリの終了"},
	mQuitLine:  {"Quitting stops every running seat. When you start one again in its topic, it:", "終了すると、稼働中の席はすべて止まります。そのトピックでまた起動すると："},
	mQuitSeat:  {"• %s in “%s”: %s", "• %s（「%s」）: %s"},

	mQuitResumes:      {"resumes its conversation", "会話を再開します"},
	mQuitNoSession:    {"starts fresh (no conversation recorded yet)", "新しく始まります（会話はまだ記録されていません）"},
	mQuitNoResumeLine: {"starts fresh (its account has no resume line)", "新しく始まります（アカウントに再開の行がありません）"},
	mQuitGone:         {"starts fresh (its conversation was not found)", "新しく始まります（会話が見つかりません）"},

	// Quitting a UI of `pullcept server` (overlay_update.go onQuitOutlook).
	mDlgDetach:       {"Detach", "切り離す"},
	mDlgStopAll:      {"Stop everything", "すべて終了"},
	mLeaveTitle:      {"Leave Pullcept", "Pullcept から離れる"},
	mLeaveDetachLine: {"Detach: the seats keep running, and “pullcept attach” brings this screen back.", "切り離す：席は動き続けます。pullcept attach でこの画面に戻れます。"},
	mLeaveStopLine:   {"Stop everything: every running seat stops, the server ends and every attached window closes. When you start one again in its topic, it:", "すべて終了：稼働中の席をすべて止め、サーバーを終えます（接続中のほかの窓も閉じます）。そのトピックでまた起動すると："},

	mStLogFailed:      {"Log write failed in “%s”: %v (the post was delivered)", "「%s」のログに書けません: %v（発言は届いています）"},
	mStSkipped:        {"Skipped %d unreadable log lines in “%s”.", "「%[2]s」のログで読めない行を %[1]d 行飛ばしました。"},
	mStResumed:        {"%s resumed session %s.", "%s はセッション %s を再開しました。"},
	mStFresh:          {"%s started fresh.", "%s を新しく起動しました。"},
	mStDropped:        {"Dropped resume record %s of %s (no transcript).", "%[2]s の再開先 %[1]s を取り消しました（会話の記録がありません）。"},
	mStStartFailed:    {"%s was not started: %v", "%s を起動できません: %v"},
	mStTooOld:         {"%s %s is too old: this seat needs %s or newer (%s). Update it: %s", "%s %s は古すぎます。この席には %s 以上が必要です（%s）。更新してください: %s"},
	mVersionUnread:    {"CLI version not checked (started anyway): %s", "CLI の版を未確認のまま起動: %s"},
	mStStopped:        {"Stopped %s.", "%s を終了しました。"},
	mStRestarting:     {"Restarting %s…", "%s を再起動しています…"},
	mStRestarted:      {"%s is back: restarted, resuming its conversation.", "%s を再起動しました。前の会話の続きから動いています。"},
	mStRestartFailed:  {"%s did not restart: %s", "%s を再起動できませんでした: %s"},
	mStExited:         {"%s exited (code %d).", "%s が終了しました（コード %d）。"},
	mStExitedErr:      {"%s exited: %v", "%s が終了しました: %v"},
	mStFailed:         {"%s failed: %v", "%s の起動に失敗しました: %v"},
	mStSendRefused:    {"Not sent: %v", "送れません: %v"},
	mStRejected:       {"Not sent: %d new posts arrived first. Read them; your text is back in the input.", "送れません。先に %d 件の発言が届いていました。読んでから送り直してください（本文は入力欄に戻しました）。"},
	mStPostFailed:     {"Not sent: %v", "送れません: %v"},
	mStHistoryFailed:  {"Older posts could not be read: %v", "古い発言を読めません: %v"},
	mChatClipped:      {"… %s in all; the whole post: %s", "… 全体で %s。全文: %s"},
	mStPasteTooBig:    {"Paste not taken: the post would be %s; a post is at most 1 MiB. Save it as a file and give its path.", "貼り付けませんでした: 発言が %s になります。発言は 1 MiB までです。ファイルに保存してパスを書いてください。"},
	mStPasteTooTall:   {"Paste not taken: %d rows at this width; the input holds %d. Save it as a file and give its path.", "貼り付けませんでした: この幅で %d 行になります。入力欄は %d 行までです。ファイルに保存してパスを書いてください。"},
	mStPostTooLong:    {"Not sent: the post is %s; a post is at most 1 MiB. Save it as a file and give its path.", "送れません: 発言が %s です。発言は 1 MiB までです。ファイルに保存してパスを書いてください。"},
	mChatClippedLog:   {"the topic's log", "トピックのログ"},
	mChatUntaken:      {"⚠ %s did not take this post — see its pane", "⚠ %s はこの投稿を受け取っていません（端末を参照）"},
	mChatUntakenMany:  {"⚠ %s did not take this post — see their panes", "⚠ %s はこの投稿を受け取っていません（各端末を参照）"},
	mChatSigned:       {"✓ signed %s", "✓ 署名 %s"},
	mChatUntakenFold:  {"⚠ %s did not take a notice here — open it to see which", "⚠ %s が受け取っていない通知があります（開いて確認）"},
	mStTopicFailed:    {"Topic could not be opened: %v", "トピックを開けません: %v"},
	mStAccountsFailed: {"Accounts could not be read: %v", "アカウントを読めません: %v"},
	mStInputFailed:    {"Keys did not reach %s: %v", "%s へキーが届きません: %v"},
	mStResizeFailed:   {"Resizing %s failed: %v", "%s の大きさを変えられません: %v"},
	mStStopFailed:     {"%s could not be stopped: %v", "%s を終了できません: %v"},
	mStRenameFailed:   {"Rename failed: %v", "名前を変えられません: %v"},
	// While the topic rename prompt is open, and F2 with the list hidden.
	mStRenameHow:        {"Name: %s keeps it, %s cancels", "名前: %s で決定、%s で取消"},
	mStRenameListHidden: {"Rename: the topic list is hidden (%s shows it)", "名前の変更: トピック一覧が隠れています（%s で表示）"},
	mStDeleteFailed:     {"Delete failed: %v", "削除できません: %v"},
	mStRoomClosed:       {"The room server stopped.", "部屋のサーバが止まりました。"},
	mStResynced:         {"The screen fell behind and missed updates; reloaded.", "画面の更新が追いつかず取りこぼしたため、読み込み直しました。"},
	mStHelpHint:         {"%s help", "%s ヘルプ"},
	mStWelcome:          {"New topic. Your first post names it.", "新しいトピックです。最初の発言が名前になります。"},
	mStNoSeatForPane:    {"No running seat in this topic: start one from Accounts.", "このトピックに走っている席はありません。アカウントから開始してください。"},
	mStNotStartable:     {"%s is not a kind that runs in a seat.", "%s は席で起動する種別ではありません。"},
	mStCopied:           {"Copied session id %s of %s.", "%[2]s のセッション ID %[1]s をコピーしました。"},
	mStCopiedLines:      {"Copied %d lines of %s's terminal.", "%[2]s の端末から %[1]d 行をコピーしました。"},
	mStNothingToCopy:    {"Nothing to copy in %s's terminal.", "%s の端末にコピーするものがありません。"},
	mStPaneClosed:       {"Closed %s's terminal.", "%s の端末を閉じました。"},
	mStPaneEnded:        {"%s's terminal: %s. %s closes it.", "%s の端末: %s。%s で閉じます。"},
	mStNoSessionID:      {"No session id for %s.", "%s のセッション ID はありません。"},
	mStLaunchWarnings:   {"Warning: %s", "警告: %s"},
	mStNoAccounts:       {"No AI accounts yet: Tab to Accounts, then 1 Claude Code · 2 Codex · 3 CLI.", "AI のアカウントがありません。Tab でアカウントへ移り、1 Claude Code · 2 Codex · 3 CLI で作成します。"},
	mStBraked: {"Brake in “%s”: after %d AI posts in a row, AI posts are no longer typed into the seats. Post, or press %s, to go on.",
		"「%s」でブレーキ: AI の発言が %d 件続いたので、AI の発言を席へ打ち込むのを止めました。発言するか %s で再開します。"},
	mBrakeNotice: {"Brake: after %d AI posts in a row with no post from the human, the room stopped typing AI posts into the seats. They are still delivered and logged (read_room_history). To go on, the human posts, or presses %s to release the brake and type the posts it held. (no reply needed)",
		"ブレーキ: 人の発言がないまま AI の発言が %d 件続いたため、部屋は AI の発言を席へ打ち込むのを止めました。発言は届いて記録されています（read_room_history）。続けるには、人が発言するか、%s でブレーキを解除して止めていた発言を打ち込みます。（返信不要）"},
	mStBrakeReleased: {"Brake released in “%s”: AI posts are typed into the seats again.", "「%s」のブレーキを解除しました。AI の発言をまた席へ打ち込みます。"},
	mStBrakeTyped:    {"Brake released in “%s”: typed the %d posts it held into the seats.", "「%s」のブレーキを解除し、止めていた %d 件の発言を席へ打ち込みました。"},
	mStBrakeTypedCut: {"Brake released in “%s”: typed %d of the posts it held; %d more, the oldest of the seats that held the most, are in the history.", "「%s」のブレーキを解除し、止めていた発言のうち %d 件を打ち込みました。ほかの %d 件（止めていた数の多い席の古いもの）は履歴にあります。"},
	mStBrakeNoneHeld: {"Brake released in “%s”: no posts were waiting; AI posts are typed into the seats again.", "「%s」のブレーキを解除しました。止めていた発言はありません。AI の発言をまた席へ打ち込みます。"},
	mStBrakeLeft:     {"Brake released in “%s” by your post: the %d posts it held stay in the history, not typed.", "あなたの発言で「%s」のブレーキを解除しました。止めていた %d 件は打ち込まず、履歴に残します。"},
	mStNotBraked:     {"No brake is on in this topic.", "このトピックにブレーキはかかっていません。"},
	mStReleaseFailed: {"Brake in “%s” not released: %v", "「%s」のブレーキを解除できません: %v"},
	mStBrakeOn:       {"brake: %s releases", "ブレーキ中: %s で解除"},

	mHelpCharacterStyles: {"character: list styles", "キャラ: スタイル一覧"},
	mHelpOpenInEditor:    {"body in $EDITOR", "本文を $EDITOR で開く"},
	mHelpReloadBody:      {"read the body again", "本文を読み直す"},
	mHelpPreviewUp:       {"launch line: scroll up", "起動の行: 上へ"},
	mHelpPreviewDown:     {"launch line: scroll down", "起動の行: 下へ"},
	mEdBody:              {"body", "本文"},
	mEdBodyNoName:        {"— name a character to edit its body", "— キャラクターの名前を書くと本文を直せます"},
	mEdBodyLoading:       {"reading…", "読んでいます…"},
	mEdBodyNew:           {"new file", "新しいファイル"},
	mEdBodyLines:         {"%d lines", "%d 行"},
	mEdBodyUnsaved:       {"unsaved", "未保存"},
	mEdBodyNextStart:     {"A saved body takes effect at the seat's next start.", "保存した本文は、その席の次の起動から効きます。"},
	mEdBodyHeld:          {"This file holds tabs, mixed line ends or control characters this field cannot keep exactly: read-only here; %s opens it in your editor.", "このファイルにはタブ・混在した改行・制御文字など、この欄では正確に保てない文字があります。ここでは読み取り専用です。%s で自分のエディタで開けます。"},
	mEdBodyReadErr:       {"The body cannot be opened: %s", "本文を開けません: %s"},
	mEdBodyMoved:         {"The body's place changed to %s; your unsaved edits are for %s. %s reads the new place (your edits are dropped), or change the fields back.", "本文の場所が %s に変わりました。未保存の変更は %s のものです。%s で新しい場所を読みます（変更は捨てます）。欄を戻すこともできます。"},
	mEdBodyWorn:          {"Also worn by %s: saving changes their character too.", "%s も着ています。保存するとそちらのキャラも変わります。"},
	mEdBodyFrontClaude:   {"Line %d names it “%s”: Claude selects a style by its name:, so “%s” will not select this file.", "%d 行目の name: は「%s」です。Claude は name: で選ぶため、「%s」ではこのファイルは選ばれません。"},
	mEdBodyFrontCodex:    {"Line %d names it “%s”: Li+'s helper stops a seat whose style's name: is not its file name “%s”.", "%d 行目の name: は「%s」です。Li+ の helper は name: がファイル名「%s」と違う style で起動を止めます。"},
	mEdBodyDefinedIn:     {"Claude finds a style of this name in %s; this body is another file.", "この名前のスタイルを Claude は %s から読みます。この本文は別のファイルです。"},
	mEdBodyHint:          {"%s opens it in $EDITOR · %s reads it again", "%s で $EDITOR · %s で読み直す"},
	mEdCodexNoFolder:     {"%s does not exist: creating it switches every Codex seat in this folder to Li+'s file mode, where a seat without a character needs character_instance.md.", "%s はありません。作ると、このフォルダーで起動する Codex の席はすべてファイル方式に変わり、キャラクター欄が空の席は character_instance.md を要します。"},
	mEdStylesHint:        {"%s lists %d styles", "%s で %d 件のスタイル"},
	mEdStylesNone:        {"no output styles found (the working directory's .claude/output-styles and its parents', then your user's)", "出力スタイルが見つかりません（作業ディレクトリとその親の .claude/output-styles、次に利用者のもの）"},
	mEdStyleUser:         {"user", "ユーザー"},
	mEdStyleProject:      {"project", "プロジェクト"},
	mEdViaStyle:          {"character: %s → outputStyle in --settings", "キャラクター: %s → --settings の outputStyle"},
	mEdViaEnv:            {"character: %s → LI_PLUS_OUTPUT_STYLE=%[1]s in the seat's environment (Li+ hook mode)", "キャラクター: %s → 席の環境変数 LI_PLUS_OUTPUT_STYLE=%[1]s（Li+ の hook 方式）"},
	mEdViaInstructions:   {"character: %s → the style's body in the conversation's developer instructions (app-server mode)", "キャラクター: %s → スタイルの本文を会話の developer instructions で渡す（app-server 方式）"},
	mEdViaInline:         {"character: %s → the block under # %[1]s in your developer_instructions, other characters' blocks left out (inline, app-server mode)", "キャラクター: %s → developer_instructions の見出し # %[1]s のブロックを選び、他のキャラのブロックを除いて渡す（inline、app-server 方式）"},
	mEdViaNoneInline:     {"character: none → your developer_instructions as they are (no Li+ style files in this project)", "キャラクター: なし → developer_instructions をそのまま渡す（この project に Li+ のスタイルファイルなし）"},
	mEdViaNone:           {"character: none → the working directory's default style", "キャラクター: なし → 作業ディレクトリの既定のスタイル"},
	mEdViaNoneCodex:      {"character: none → the project's default ([liplus] output_style or character_instance.md)", "キャラクター: なし → project の既定（[liplus] output_style か character_instance.md）"},
	mEdConfirmMkdir:      {"The working dir %s does not exist: saving creates it.", "作業ディレクトリ %s はありません。保存すると作ります。"},
	mEdConfirmCodex:      {"%s does not exist: saving creates it, and every Codex seat in this folder then uses Li+'s file mode.", "%s はありません。保存すると作り、このフォルダーの Codex の席はすべてファイル方式になります。"},
	mEdConfirmWorn:       {"The body is also worn by %s: saving changes their character too.", "本文は %s も着ています。保存するとそちらのキャラも変わります。"},
	mEdConfirmAgain:      {"Press %s again to save.", "もう一度 %s で保存します。"},
	mEdNotSavedProblems:  {"Not saved: %s", "保存できません: %s"},
	mEdNotSavedMoved:     {"Not saved: the body's place changed since your edits (%s, was %s). %s reads the new place, or change the fields back.", "保存できません: 変更した後に本文の場所が変わりました（%s、元は %s）。%s で新しい場所を読むか、欄を戻してください。"},
	mEdBodyTooBig:        {"Not saved: the body is %d bytes; a character body is at most %d.", "保存できません: 本文が %d バイトです。本文は %d バイトまでです。"},
	mEdDiscardAsk:        {"Unsaved changes: %s again drops them, %s saves.", "保存していない変更があります。もう一度 %s で捨てます。%s で保存します。"},
	mEdNoEditor:          {"Set $VISUAL or $EDITOR to open the body in your editor.", "本文を自分のエディタで開くには $VISUAL か $EDITOR を設定してください。"},
	mEdEditDirty:         {"The body has unsaved edits: save or read it again before opening it in your editor.", "本文に保存していない変更があります。保存するか読み直してから、エディタで開いてください。"},
	mEdEditArm:           {"%s does not exist: press the key again to create it (every Codex seat in this folder then uses Li+'s file mode) and open your editor.", "%s はありません。もう一度押すと作り（このフォルダーの Codex の席はすべてファイル方式になります）、エディタで開きます。"},
	mEdEditFailed:        {"The editor did not finish: %v", "エディタが正常に終わりませんでした: %v"},
	mEdEditNoName:        {"Name a character (and a working dir) first.", "先にキャラクター（と作業ディレクトリ）を書いてください。"},
	mEdFieldProblem:      {"%s: %s", "%s: %s"},
	mEdFieldLineProblem:  {"%s line %d: %s", "%s %d 行目: %s"},
	mEdPreviewScroll:     {"%d–%d of %d · %s/%s", "%d–%d / %d · %s/%s"},
	mEdMore:              {"… and %d more", "… ほか %d 件"},
	mEdBodyPasteRefused:  {"Paste not taken: the body would be %d bytes in %d lines; it holds %d bytes and %d lines.", "貼り付けませんでした: 本文が %d バイト・%d 行になります。本文は %d バイト・%d 行までです。"},

	// The server section of an mcp account's editor (editor_mcp.go).
	mEdSrvSection:         {"Server", "サーバ"},
	mEdSrvEntry:           {"entry “%s” in %s", "%[2]s の「%[1]s」"},
	mEdSrvState:           {"state", "状態"},
	mEdSrvArgs:            {"args (per line)", "引数（1行に1つ）"},
	mEdSrvNotStarted:      {"not started", "未起動"},
	mEdSrvStarting:        {"starting", "起動中"},
	mEdSrvRunning:         {"running", "実行中"},
	mEdSrvExited:          {"exited %d", "終了 %d"},
	mEdSrvFailed:          {"failed", "起動失敗"},
	mEdSrvStopped:         {"stopped", "停止"},
	mEdSrvRestartHint:     {"%s restarts it", "%s で再起動"},
	mEdSrvSaveRestartHint: {"%s saves the fields below and restarts it", "%s で下の欄を保存して再起動"},
	mEdSrvStopHint:        {"%s stops it", "%s で停止"},
	mEdSrvUnregistered:    {"not in mcp-servers.json (its entry was removed)", "mcp-servers.json にありません（エントリが消されました）"},
	mEdSrvStale:           {"mcp-servers.json changed since it started: a restart applies it", "起動の後に mcp-servers.json が変わりました。再起動で反映します"},
	mEdSrvLoading:         {"reading the server…", "サーバを読んでいます…"},
	mEdSrvReadFailed:      {"Cannot read the server: %v", "サーバを読めません: %v"},
	mEdSrvUnavailable:     {"This build runs no local MCP servers.", "このビルドはローカル MCP サーバを動かしません。"},
	mEdSrvRestarting:      {"restarting…", "再起動しています…"},
	mEdSrvRestartFailed:   {"Not restarted: %v", "再起動できません: %v"},
	mEdSrvRestartAsked:    {"Restarting %s.", "%s を再起動します。"},
	mEdSrvSavedRestart:    {"Saved the server's fields; restarting %s.", "サーバの欄を保存しました。%s を再起動します。"},
	mEdSrvLog:             {"Server log", "サーバのログ"},
	mEdSrvLogEmpty:        {"(nothing logged yet)", "（まだ何も出ていません）"},
	mEdSrvNewHint:         {"Saving writes a new entry to mcp-servers.json, saves the account, then starts the server.", "保存すると mcp-servers.json に新しいエントリを書き、アカウントを保存してからサーバを起動します。"},
	mEdSrvWarnings:        {"Note: %s", "注意: %s"},

	// The settings overlay (settings.go, settings_update.go).
	mGroupSettings:           {"Settings", "設定"},
	mHelpSettings:            {"settings", "設定"},
	mHelpSettingsLess:        {"previous value, less", "前の値・減らす"},
	mHelpSettingsMore:        {"next value, more", "次の値・増やす"},
	mHelpSettingsSection:     {"next section", "次の項目"},
	mHelpSettingsSectionPrev: {"previous section", "前の項目"},
	mSetTitle:                {"Settings", "設定"},
	mSetSecDisplay:           {"Display", "表示"},
	mSetSecRoom:              {"Room", "部屋"},
	mSetSecKeys:              {"Keys", "キー"},
	mSetSecData:              {"Data folder", "データの場所"},
	mSetLanguage:             {"Language", "言語"},
	mSetTheme:                {"Theme", "配色"},
	mSetTopics:               {"Topic list", "トピックの一覧"},
	mSetParticipants:         {"Accounts panel", "アカウントの一覧"},
	mSetPanes:                {"Seat terminals", "席の端末"},
	mSetPaneShare:            {"Terminal height", "端末の高さ"},
	mSetBrake:                {"AI brake", "AI 連投のブレーキ"},
	mSetLangLocale:           {"from the locale (%s)", "ロケールに従う（%s）"},
	mSetLangEnvWins:          {"%s (%s)", "%s（%s）"},
	mSetLangEnglish:          {"English", "English"},
	mSetLangJapanese:         {"日本語", "日本語"},
	mSetThemeAuto:            {"from the terminal (%s)", "端末に従う（%s）"},
	mSetThemeLight:           {"light", "明るい"},
	mSetThemeDark:            {"dark", "暗い"},
	mSetShown:                {"shown", "開いている"},
	mSetHidden:               {"hidden", "閉じている"},
	mSetShare:                {"%d %% of the centre", "中央の %d %%"},
	mSetBrakeN:               {"after %d AI posts in a row", "AI の発言が %d 件続いたら"},
	mSetBrakeOff:             {"off", "切"},
	mSetLanguageNote:         {`The screen's language. Saved in config.json "language".`, `画面の言語です。config.json の "language" に保存します。`},
	mSetLanguageEnv:          {"%s=%s is set: it wins over this setting at each start.", "%s=%s が設定されています。起動のたびにこの設定より優先されます。"},
	mSetThemeNote:            {`Colours for a light or a dark terminal; "from the terminal" follows its background. Saved in config.json "theme".`, `明るい端末向けか暗い端末向けかの配色です。「端末に従う」は端末の背景色に合わせます。config.json の "theme" に保存します。`},
	mSetPanelNote:            {"%s opens or closes it anywhere. Remembered for the next start in ui-state.json.", "%s でいつでも開閉できます。次の起動のために ui-state.json に記録します。"},
	mSetShareNote:            {"The seat terminals' share of the centre column, %d–%d %%; %s / %s change it anywhere. Remembered in ui-state.json.", "中央の列のうち席の端末が占める割合です（%d〜%d %%）。%s / %s でいつでも変えられます。ui-state.json に記録します。"},
	mSetBrakeNote:            {`After this many AI posts in a row with no post from you, the room stops typing AI posts into the seats; your next post or %s releases it. 0 turns it off. Saved in config.json "brake"; every room follows it at once (a room already braked stays so until released).`, `あなたの発言がないまま AI の発言がこの件数続くと、部屋は AI の発言を席へ打ち込むのをやめます。あなたの次の発言か %s で解除します。0 で切です。config.json の "brake" に保存し、すべての部屋にすぐ効きます（既に止まっている部屋は解除まで止まったままです）。`},
	mSetBrakeKeys:            {"%s / %s: one less or more; %s / %s: ten.", "%s / %s で 1 ずつ、%s / %s で 10 ずつ変えます。"},
	mCardAlwaysHidden:        {"Read every suggestion first, or answer in the pane (%s).", "提案を全部読んでから。またはペインで答える（%s）。"},
	mStNoCard:                {"No permission request is waiting.", "許可を待っている確認はありません。"},
	mCardHeld:                {"The card went while you typed its reason; nothing more was sent. %s: next card (%d waiting) · %s: back", "理由の入力中にカードが閉じました。それ以上は送っていません。%s: 次のカード（残り %d）· %s: 戻る"},
	mSetSessionOps:           {"Seats start and stop seats", "席による席の開始・終了"},
	mSetSessionOpsTopic:      {"in their own topic", "自分のトピックの席だけ"},
	mSetSessionOpsAll:        {"in any open topic", "開いているすべてのトピック"},
	mSetSessionOpsOff:        {"off", "切"},
	mSetSessionOpsNote:       {`AI seats may start, stop or restart seats (their own or another account's) with their room tools, without asking you each time; each result is a notice in the asking seat's room. A restart always resumes the same conversation or does nothing. Saved in config.json "session_operations"; applies to the next request.`, `AI の席は部屋のツールで席（自分か他のアカウント）を開始・終了・再起動できます。毎回あなたに確認はしません。結果は依頼した席の部屋に通知で残ります。再起動は必ず同じ会話を再開し、できなければ何もしません。config.json の "session_operations" に保存し、次の依頼から効きます。`},
	mSetSecNotify:            {"Notifications", "通知"},
	mSetNotify:               {"Notify me", "知らせ方"},
	mSetNotifySeq:            {"Terminal signal", "端末への合図"},
	mSetNotifyDwell:          {"Ring after", "鳴らすまで"},
	mSetNotifyCooldown:       {"Quiet after a ring", "鳴らした後の休み"},
	mSetPermissionWait:       {"Permission card waits", "許可カードの待ち時間"},
	mSetNotifyOff:            {"off", "切"},
	mSetNotifyTerminal:       {"in the terminal", "端末で"},
	mSetNotifyDesktop:        {"on the desktop", "デスクトップに"},
	mSetSeqAuto:              {"from the terminal", "端末に従う"},
	mRingInTmux:              {"in tmux, %s", "tmux 内、%s"},
	mSetSeqOSC9:              {"OSC 9", "OSC 9"},
	mSetSeqOSC777:            {"OSC 777", "OSC 777"},
	mSetSeqBEL:               {"BEL", "BEL"},
	mSetSeqOSC99:             {"OSC 99", "OSC 99"},
	mSetAtOnce:               {"at once", "すぐ"},
	mSetDwellN:               {"%s unseen", "見ないまま %s"},
	mSetCooldownNone:         {"not at all", "なし"},
	mSetSeconds:              {"%d s", "%d 秒"},
	mSetMinutes:              {"%d min", "%d 分"},
	mSetHours:                {"%d h", "%d 時間"},
	mSetNotifyNote:           {`How Pullcept calls you when something needs you (F5 goes to it; Shift+F5 lists them): "in the terminal" rings the terminal you use Pullcept in; "on the desktop" shows a desktop notification when that terminal is on this machine, else rings it; "off" calls nobody (the status line still counts it). Saved in config.json "notifications"; applies at once.`, `あなたの対応が必要なこと（F5 で移動、Shift+F5 で一覧）の知らせ方です。「端末で」は Pullcept を使っている端末を鳴らし、「デスクトップに」はその端末がこのマシンにあればデスクトップ通知を出し、なければ端末を鳴らします。「切」は誰も呼びません（状態行には数が出ます）。config.json の "notifications" に保存し、すぐに効きます。`},
	mSetNotifySeqNote:        {`What Pullcept writes to ring the terminal: "from the terminal" picks it from what the terminal says it is. If yours shows nothing, choose OSC 9, OSC 777 or OSC 99 (kitty) (a notification with its text) or BEL (the bell alone); docs/notifications.md says which terminal takes which. Saved in config.json "notify_sequence".`, `端末を鳴らすために書く合図です。「端末に従う」は端末が名乗る種類から選びます。何も出ないときは OSC 9、OSC 777、OSC 99（kitty）（文つきの通知）、または BEL（ベルだけ）を選んでください。どの端末がどれを受けるかは docs/notifications.md にあります。config.json の "notify_sequence" に保存します。`},
	mSetNotifyDwellNote:      {`How long something waits unseen before it rings: if you see it first, nothing rings; 0 rings at once. Saved in config.json "notify_dwell".`, `鳴らす前に待つ時間です。その間にあなたが見れば鳴りません。0 ならすぐ鳴らします。config.json の "notify_dwell" に保存します。`},
	mSetNotifyCooldownNote:   {`After a ring, the same seat does not ring again for this long, however often it asks; 0 rings every time. Saved in config.json "notify_cooldown".`, `一度鳴らした後、同じ席はこの間、何度求めても鳴らしません。0 なら毎回鳴らします。config.json の "notify_cooldown" に保存します。`},
	mSetPermissionWaitNote:   {`How long a permission card waits for your answer, %s at most; then only the seat's own dialog in its pane is left. New cards follow a change at once; open ones keep their time. Saved in config.json "permission_wait".`, `許可のカードがあなたの答えを待つ時間です（最長 %s）。過ぎると席のペインのダイアログだけが残ります。変えるとすぐ次のカードから効き、開いているカードはそのままです。config.json の "permission_wait" に保存します。`},
	mSetKeysNote:             {`View only. To change a key, give its name new keys in config.json "keys", e.g. "keys": {"new_topic": ["ctrl+n", "alt+n"]}, and start Pullcept again.`, `見るだけです。キーを変えるには config.json の "keys" に名前と新しいキーを書き、Pullcept を起動し直します。例: "keys": {"new_topic": ["ctrl+n", "alt+n"]}`},
	mSetFile:                 {"File: %s", "ファイル: %s"},
	mSetColName:              {"name", "名前"},
	mSetColKeys:              {"keys", "キー"},
	mSetColWhat:              {"what it does", "働き"},
	mSetDataIntro:            {"Pullcept keeps its settings, accounts and topics in", "Pullcept は設定・アカウント・トピックをここに置きます"},
	mSetDataDefault:          {"This is the default place (the OS config folder).", "既定の場所です（OS の設定フォルダ）。"},
	mSetDataEnv:              {"%s chose it.", "%s で選ばれています。"},
	mSetDataFlag:             {"The --data option chose it.", "--data オプションで選ばれています。"},
	mSetDataHolds:            {"It holds config.json (settings and accounts), mcp-servers.json (local MCP servers), session-operations.json (what seats asked to start, stop or restart), ui-state.json (what the screen remembers), logs/ (the topics and their attachments) and pullcept.log.", "config.json（設定とアカウント）、mcp-servers.json（ローカル MCP サーバー）、session-operations.json（席が依頼した開始・終了・再起動）、ui-state.json（画面が覚えていること）、logs/（トピックと添付）、pullcept.log があります。"},
	mSetDataMove:             {"To move it: quit Pullcept (with a server: pullcept kill-server), move the folder, then start Pullcept with %s set to the new place (or with --data DIR).", "移すには：Pullcept を終了し（サーバーなら pullcept kill-server）、フォルダを移して、%s に新しい場所を設定して起動します（--data DIR でも）。"},
	mSetFooter:               {"%s choose · %s change · %s section · %s close", "%s 選ぶ · %s 変える · %s 項目 · %s 閉じる"},
	mSetApplied:              {"Changes apply at once and are saved.", "変えた時点で効き、保存されます。"},
	mSetReadOnly:             {"Read only: nothing changes from this page.", "見るだけのページです。ここからは何も変わりません。"},
	mSetFooterRead:           {"%s scroll · %s section · %s close", "%s スクロール · %s 項目 · %s 閉じる"},
	mSetSaved:                {"Saved in %s.", "%s に保存しました。"},
	mSetLoading:              {"Reading the settings…", "設定を読んでいます…"},
	mSetLoadFailed:           {"Cannot read the settings: %s", "設定を読めません: %s"},
	mSetAvatars:              {"Avatars", "アバター"},
	mSetAvatarsNames:         {"names only", "名前だけ"},
	mSetAvatarsInitials:      {"initials and names", "頭文字と名前"},
	mSetAvatarsNote:          {`How the chat and the accounts panel show who is who: "initials and names" puts a mark of each one's initials before its name, in its colour. No two participants share a mark: Claude Lay and Claude Lin are (CLa) and (CLi). A terminal shows no pictures. Saved in config.json "avatars".`, `会話と一覧で誰の行かを示す方法です。「頭文字と名前」は名前の前に、その人の色で頭文字の印を置きます。二人が同じ印になることはありません（Claude Lay と Claude Lin は (CLa) と (CLi)）。端末では画像は出しません。config.json の "avatars" に保存します。`},
	mSetSaveFailed:           {"Settings not saved: %s", "設定を保存できません: %s"},
	mSetViewFailed:           {"The panels were not remembered: %s", "パネルの状態を記録できません: %s"},

	// The permission cards (permission.go, permission_update.go).
	mGroupPermission:     {"Permission cards", "許可の確認"},
	mHelpPermission:      {"answer a permission card", "許可の確認に答える"},
	mHelpPermAllow:       {"allow once", "今回だけ許可"},
	mHelpPermAlways:      {"allow, apply its suggestions", "許可して提案も適用"},
	mHelpPermDeny:        {"deny", "拒否"},
	mHelpPermReason:      {"deny, with a reason", "理由を付けて拒否"},
	mHelpPermSend:        {"send the denial", "拒否を送る"},
	mHelpPermPane:        {"go to the seat's pane", "その席の端末へ"},
	mHelpPermPrev:        {"previous card", "前のカード"},
	mHelpPermNext:        {"next card", "次のカード"},
	mCardTitle:           {"Permission", "許可の確認"},
	mCardMCP:             {"MCP %s", "MCP %s"},
	mCardAgent:           {"subagent %s", "サブエージェント %s"},
	mCardTopic:           {"in %s", "トピック %s"},
	mCardMore:            {"+%s more lines not shown (%s's pane)", "ほか %s 行は省略（%s の端末）"},
	mCardAlways:          {"always:", "常に:"},
	mCardSuggestionsCut:  {"Its suggestions are too long for a card: answer in the pane to apply them.", "提案が長すぎてカードに載りません。適用するなら端末で答えてください。"},
	mCardRuleAllow:       {"allow %s", "%s を許可"},
	mCardRuleDeny:        {"deny %s", "%s を拒否"},
	mCardRuleAsk:         {"ask before %s", "%s は確認する"},
	mCardRulesRemove:     {"remove the rules %s", "ルール %s を外す"},
	mCardRulesReplace:    {"replace the rules with %s", "ルールを %s に置き換える"},
	mCardMode:            {"switch to %s mode", "%s モードにする"},
	mCardDirsAdd:         {"allow the folder %s", "フォルダ %s を許可"},
	mCardDirsRemove:      {"remove the folder %s", "フォルダ %s を外す"},
	mCardDestSession:     {"this session", "このセッション"},
	mCardDestLocal:       {"local settings", "ローカル設定"},
	mCardDestProject:     {"project settings", "プロジェクト設定"},
	mCardDestUser:        {"user settings", "ユーザー設定"},
	mCardDestCLI:         {"command line", "コマンドライン"},
	mCardReason:          {"Reason:", "理由:"},
	mCardSending:         {"sending the answer…", "答えを送っています…"},
	mCardFocus:           {"answer here", "ここで答える"},
	mCardWaiting:         {"%d waiting", "待ち %d 件"},
	mCardSendReason:      {"deny", "拒否"},
	mCardBack:            {"back", "戻る"},
	mCardAllow:           {"allow", "許可"},
	mCardAllowAlways:     {"always", "常に許可"},
	mCardDeny:            {"deny", "拒否"},
	mCardDenyReason:      {"deny, why", "理由付き拒否"},
	mCardPane:            {"%s's pane", "%s の端末"},
	mCardOther:           {"other cards", "他のカード"},
	mCardReadOn:          {"read on", "続きを読む"},
	mCardReadMore:        {"%d–%d/%d · read to the end (%s)", "%d〜%d/%d 行 · 最後まで読む（%s）"},
	mCardReadDone:        {"All %d rows read.", "全 %d 行を読みました。"},
	mCardReadCut:         {"Only part of %d lines is here: answer in the pane to allow.", "全 %d 行の一部しか載っていません。許可は端末で。"},
	mCardReadFirst:       {"Read to the end first (%s): y allows only what you saw.", "先に最後まで読んでください（%s）。y は見た内容だけを許可します。"},
	mCardCutPane:         {"Only part of the request is here: answer in the pane (%s) to allow it.", "依頼の一部しか載っていません。許可するなら端末で答えてください（%s）。"},
	mCardJustShown:       {"This card just appeared: nothing was answered. Read it, then answer.", "このカードは今出たところです。何も答えていません。読んでから答えてください。"},
	mStCardUnread:        {"Not allowed yet: the card did not show all of %s's request. It shows whole now; %s allows once you read it to the end.", "まだ許可していません: %s の依頼がカードに全部は見えていませんでした。全文を出したので、最後まで読んだら %s で許可します。"},
	mStCardNoAlways:      {"%s's request comes with no rules to keep: %s allows it once.", "%s の依頼には残すルールがありません。%s で一度だけ許可します。"},
	mStCardOnItsWay:      {"The answer to this card is on its way: one answer at a time.", "このカードへの答えを送っています。答えは一度に一つです。"},
	mStCardAsked:         {"%s asks to use %s: %s answers it here.", "%s が %s の許可を求めています。%s でここから答えられます。"},
	mStCardAllowed:       {"Allowed %s for %s.", "%[2]s の %[1]s を許可しました。"},
	mStCardsWaiting:      {" %s: next card (%d waiting)", " %s: 次のカード（残り %d）"},
	mStCardAllowedAlways: {"Allowed %s for %s, with its suggestions.", "%[2]s の %[1]s を許可し、提案も適用しました。"},
	mStCardDenied:        {"Denied %s for %s.", "%[2]s の %[1]s を拒否しました。"},
	mStCardTimedOut:      {"%s's request for %s waited too long: answer it in its pane.", "%s の %s の許可は待ち時間を過ぎました。端末で答えてください。"},
	mStCardElsewhere:     {"%s's request for %s was answered in its pane, or it went on.", "%s の %s の許可は端末で答えられたか、先へ進みました。"},
	mStCardFailed:        {"Not answered: %s", "答えられませんでした: %s"},
	mStCardNoPane:        {"%s has no pane in this topic.", "%s の端末はこのトピックにありません。"},
	mAttnTitle:           {"Needs you", "対応待ち"},
	mAttnEmpty:           {"Nothing needs you.", "対応待ちはありません。"},
	mAttnFooter:          {"%s go there · %s close · %s the next one from anywhere", "%s 移動 · %s 閉じる · %s どこからでも次へ"},
	mAttnCard:            {"%s asks to use %s", "%s が %s の許可を求めています"},
	mAttnCardTimedOut:    {"%s's request for %s went unanswered: answer in its pane", "%s の %s の許可は時間切れ。端末で答えてください"},
	mAttnAddressed:       {"%s wrote to you", "%s からあなた宛ての投稿"},
	mAttnLimited:         {"%s stopped on its usage limit (lifts %s)", "%s が利用上限で停止（%s に解除）"},
	mAttnLimitedUnknown:  {"%s stopped on its usage limit", "%s が利用上限で停止"},
	mAttnResumed:         {"%s runs again after its usage limit", "%s が利用上限のあと再開"},
	mAttnExited:          {"%s ended: %s", "%s が終了: %s"},
	mAttnBraked:          {"brake: %d AI posts in a row", "ブレーキ: AI の投稿が %d 件続きました"},
	mAttnOpFailed:        {"a session operation failed: %s", "席の操作が失敗: %s"},
	mAttnMCPDied:         {"MCP server %s ended: %s", "MCP サーバー %s が終了: %s"},
	mStNeedsYou:          {"%d need you: %s", "対応待ち %d: %s"},
	mHelpNeedsYou:        {"go to the next thing that needs you", "次の対応待ちへ移動"},
	mHelpNeedsYouList:    {"list what needs you", "対応待ちの一覧"},
}

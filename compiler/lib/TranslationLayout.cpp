//===- TranslationLayout.cpp - Where generated code goes ------------------===//
#include "pocc/TranslationLayout.h"

#include "pocc/Config.h"
#include "pocc/FormatCode.h"
#include "pocc/LayoutHash.h"
#include "pocc/SerializerGen.h"

#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace pocc {

void TranslationLayout::noteUseAt(const RemoteClass &C, const Decl *Top) {
  if (Declared.insert(&C).second) {
    FirstUse.emplace_back(&C, Top);
    return;
  }
  for (auto &[Unit, At] : FirstUse)
    if (Unit == &C && Top &&
        (!At || SM.isBeforeInTranslationUnit(Top->getBeginLoc(), At->getBeginLoc())))
      At = Top;
}

bool TranslationLayout::copyable(FileID FID, const std::vector<IncludeDirective> &Includes) const {
  if (FID == SM.getMainFileID())
    return true;
  const SourceLocation IncludedAt = SM.getIncludeLoc(FID);
  // `-include` headers are included from the predefines, which is no file.
  if (IncludedAt.isInvalid() || !SM.getFileEntryRefForID(SM.getFileID(IncludedAt)))
    return false;
  const OptionalFileEntryRef Header = SM.getFileEntryRefForID(FID);
  return Header && std::none_of(Includes.begin(), Includes.end(), [&](const IncludeDirective &I) {
           return &I.Target.getFileEntry() == &Header->getFileEntry() &&
                  I.Name.getBegin().isMacroID();
         });
}

TranslationLayout::Insertion
TranslationLayout::placementOf(const RemoteClass &C, const Decl *FirstUse,
                               const std::vector<IncludeDirective> &Includes) const {
  const Insertion BeforeUse{SM.getExpansionLoc(FirstUse->getBeginLoc()), FirstUse};
  if (C.Decl->getTemplateInstantiationPattern())
    return BeforeUse;
  for (const auto *List : {&C.Ctors, &C.Methods})
    for (const RemoteMethod &M : *List)
      if (M.Decl && M.Decl->getPrimaryTemplate())
        return BeforeUse;
  const SourceLocation Class = SM.getExpansionLoc(C.Decl->getLocation());
  if (SM.getFileID(Class) == SM.getFileID(BeforeUse.At) || !copyable(SM.getFileID(Class), Includes))
    return BeforeUse;
  for (const Decl *Top : Tops) {
    const SourceLocation End = SM.getExpansionLoc(Top->getEndLoc());
    if (SM.isBeforeInTranslationUnit(Class, SM.getExpansionLoc(Top->getBeginLoc())) ||
        SM.isBeforeInTranslationUnit(End, Class))
      continue;
    if (!SM.isBeforeInTranslationUnit(End, BeforeUse.At))
      return BeforeUse;
    // The line after `class C { ... };` (a definition that declares
    // variables too has no `;` there, and keeps the place before the use).
    const SourceLocation After = Lexer::findLocationAfterToken(
        End, tok::semi, SM, R.getLangOpts(), /*SkipTrailingWhitespaceAndNewLine=*/true);
    return After.isValid() ? Insertion{After, Top} : BeforeUse;
  }
  return BeforeUse; // C is defined outside the user's files (a library's header)
}

std::string TranslationLayout::forwardDeclaration(const CXXRecordDecl *RD) const {
  std::string Open, Close;
  for (const DeclContext *DC = RD->getDeclContext(); DC && !DC->isTranslationUnit();
       DC = DC->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(DC);
    if (!NS)
      return {}; // nested classes cannot be declared from outside
    Open = (NS->isInline() ? "inline namespace " : "namespace ") + NS->getNameAsString() + " {\n" +
           Open;
    Close += "}\n";
  }
  return Open + (RD->isStruct() ? "struct " : "class ") + RD->getNameAsString() + ";\n" + Close;
}

std::string TranslationLayout::insertionBlock(const Decl *Top, llvm::StringRef Body) const {
  // Leave the namespaces the declaration is in, and re-enter them after.
  // `namespace a::b {` is one block with one brace: it is left and
  // re-entered as written.
  std::string Close, Open, Nested;
  for (const DeclContext *DC = Top->getLexicalDeclContext(); DC && !DC->isTranslationUnit();
       DC = DC->getLexicalParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      Nested = (NS->isInline() && NS->isNested() ? "inline " : "") + NS->getNameAsString() +
               (Nested.empty() ? "" : "::") + Nested;
      if (NS->isNested())
        continue;
      Close += "} // namespace " + Nested + "\n";
      Open = (NS->isInline() ? "inline namespace " : "namespace ") + Nested +
             (NS->isAnonymousNamespace() ? "" : " ") + "{\n" + Open;
      Nested.clear();
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC)) {
      Close += "}\n";
      Open = std::string(LS->getLanguage() == LinkageSpecLanguageIDs::C ? "extern \"C\" {\n"
                                                                        : "extern \"C++\" {\n") +
             Open;
    }
  }
  return Close + Body.str() + Open;
}

std::string TranslationLayout::laidOut(llvm::StringRef Code) const {
  return ForReaders ? formatCode(Code) : Code.str();
}

std::string TranslationLayout::generateEnd(const std::vector<const RemoteClass *> &Servers,
                                           DependentCalls *Dependent) {
  std::string Decls, Access, Serial, Clients, ServerCode;
  for (const auto &[C, Top] : FirstUse)
    if (!Top)
      Decls += declarationsOf(*C, Dependent);
  for (const RemoteClass *C : Servers)
    if (Declared.insert(C).second)
      Decls += declarationsOf(*C, Dependent);
  for (const auto &[C, Top] : FirstUse)
    Clients += Gen.emitClientDefinitions(*C) + Gen.emitMethodRegistration(*C);
  for (const RemoteClass *C : Specialised)
    Clients += Dependent->emitDefinitions(*C);
  for (const RemoteClass *C : Servers)
    ServerCode += Gen.emitServer(*C);
  // Every served class whose state can be saved gets a Serializer, so any
  // process can be made persistent, by this program or by another one.
  for (const RemoteClass *C : Servers)
    Sendable.checkState(C->Decl);
  bool NeedsAccess = false;
  for (const CXXRecordDecl *RD : Sendable.classes()) {
    Serial += emitSerializer(RD) + emitLayoutHash(RD);
    for (const FieldDecl *F : RD->fields())
      NeedsAccess |= F->getAccess() != AS_public;
  }
  // A served class that writes itself, with no version of its own: its
  // layout hash comes from its fields too.
  for (const RemoteClass *C : Servers)
    if (needsGeneratedLayoutHash(C->Decl))
      Serial += emitLayoutHash(C->Decl);
  if (NeedsAccess)
    Access = emitFieldAccessPrelude();
  std::string End = "\n// poc++: code generated for " + Copies.sourceName() + ".\n" + Decls +
                    Access + Serial + Clients + ServerCode;
  if (Main)
    End += "// poc++: the program starts the runtime, which runs the user's "
           "main.\nint main(int argc, char **argv) {\nreturn ::poc::run(argc, "
           "argv, &poc_user_main);\n}\n";
  return laidOut(End);
}

void TranslationLayout::placeSpecialisations(DependentCalls &Dependent) {
  if (Dependent.empty())
    return;
  Specialised = Dependent.specialisedClasses();
  for (const RemoteClass *C : Specialised) {
    // The first declaration after the class (templates are instantiated
    // by code that comes after it), unless the class is used earlier.
    const Decl *After = nullptr;
    for (const Decl *Top : Tops)
      if (SM.isBeforeInTranslationUnit(C->Decl->getEndLoc(), Top->getBeginLoc())) {
        After = Top;
        break;
      }
    for (const RemoteClass *Unit : Dependent.unitsCalledBy(*C))
      noteUseAt(*Unit, After);
    noteUseAt(*C, After);
  }
}

std::string TranslationLayout::declarationsOf(const RemoteClass &C, DependentCalls *Dependent) {
  std::string S = Gen.emitDeclarations(C);
  if (std::find(Specialised.begin(), Specialised.end(), &C) != Specialised.end())
    S += Dependent->emitSpecialisation(C);
  return S;
}

bool TranslationLayout::assemble(const std::vector<const RemoteClass *> &Servers,
                                 DependentCalls *Dependent,
                                 const std::vector<IncludeDirective> &Includes,
                                 llvm::StringRef GeneratedName, std::string &Output) {
  // Interface and client declarations where placementOf puts them: the
  // declarations of each place, and the declaration whose namespaces they
  // are inside.
  std::map<SourceLocation, std::pair<const Decl *, std::string>> Blocks;
  std::vector<SourceLocation> Order;
  if (Dependent)
    placeSpecialisations(*Dependent);
  for (const auto &[C, Top] : FirstUse) {
    if (!Top)
      continue; // declared at the end
    const Insertion Place = placementOf(*C, Top, Includes);
    std::string Fwd;
    if (Place.Scope == Top &&
        (SM.isBeforeInTranslationUnit(Top->getBeginLoc(), C->Decl->getBeginLoc()) ||
         Top->getBeginLoc() == C->Decl->getBeginLoc()))
      Fwd = forwardDeclaration(C->Decl);
    auto [Block, New] = Blocks.try_emplace(Place.At, Place.Scope, "");
    if (New)
      Order.push_back(Place.At);
    Block->second.second += Fwd + declarationsOf(*C, Dependent);
  }
  std::string End = generateEnd(Servers, Dependent);
  for (SourceLocation At : Order) {
    const auto &[Scope, Declarations] = Blocks[At];
    unsigned Line = SM.getExpansionLineNumber(At);
    unsigned Col = SM.getExpansionColumnNumber(At);
    std::string Text = GenLineMarker.str() + laidOut(insertionBlock(Scope, Declarations)) +
                       lineDirective(Line, Copies.fileName(SM.getFileID(At)));
    if (Col == 1)
      R.InsertTextBefore(At, Text);
    else
      R.InsertTextBefore(At, "\n" + Text + std::string(Col - 1, ' '));
  }

  if (!Copies.write(R, Includes))
    return false;
  const RewriteBuffer *Buf = R.getRewriteBufferFor(SM.getMainFileID());
  std::string Body =
      Buf ? std::string(Buf->begin(), Buf->end()) : SM.getBufferData(SM.getMainFileID()).str();
  if (!Body.empty() && Body.back() != '\n')
    Body += '\n';
  std::string Include = std::string("#include <") + config::GeneratedCodeHeader + ">\n";
  std::string Text =
      "// Generated by poc++ from " + Copies.sourceName() +
      ". Do not edit: edit the source and regenerate.\n" + Include +
      (Dependent && !Dependent->empty() ? GenLineMarker.str() + laidOut(Dependent->emitHelpers())
                                        : "") +
      lineDirective(1, Copies.sourceName()) + Body + GenLineMarker.str() + End;
  // Resolve the markers now that the generated file's lines are known.
  Output = resolveGeneratedLines(Text, GeneratedName.empty() ? "<poc++ generated>" : GeneratedName);
  return true;
}

} // namespace pocc
